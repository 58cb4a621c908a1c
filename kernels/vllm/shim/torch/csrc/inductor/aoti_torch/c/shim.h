#pragma once
// gridfuzz stand-in (kernels/vllm/shim/README.md): the current-stream query of torch's C shim.
#include <cstdint>
#include <stdexcept>

using AOTITorchError = std::int32_t;

inline AOTITorchError aoti_torch_get_current_cuda_stream(std::int32_t, void** stream) {
  *stream = nullptr;
  throw std::logic_error("gridfuzz: vLLM's torch entry points are not called (kernels/vllm/shim/README.md)");
}

#define TORCH_ERROR_CODE_CHECK(call) \
  do {                               \
    if ((call) != 0) throw std::runtime_error(#call); \
  } while (0)
