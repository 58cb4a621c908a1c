#pragma once
// gridfuzz stand-in (kernels/vllm/shim/README.md): the allocation calls of vLLM's GGUF entry
// points, which gridfuzz never calls.
#include <cstdint>
#include <initializer_list>

#include "torch/csrc/stable/tensor.h"

namespace torch::stable {

inline Tensor new_zeros(const Tensor&, std::initializer_list<std::int64_t>, torch::headeronly::ScalarType) {
  Tensor::not_used();
}
inline Tensor new_empty(const Tensor&, std::initializer_list<std::int64_t>, torch::headeronly::ScalarType) {
  Tensor::not_used();
}

}  // namespace torch::stable
