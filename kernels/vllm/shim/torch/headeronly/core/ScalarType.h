#pragma once
// gridfuzz stand-in (kernels/vllm/shim/README.md): the scalar types vLLM's GGUF entry points name.
#include <cstdint>

namespace torch::headeronly {
enum class ScalarType : std::int8_t { Float, Half, BFloat16, Int };
}  // namespace torch::headeronly
