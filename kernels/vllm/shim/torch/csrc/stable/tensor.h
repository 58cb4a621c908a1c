#pragma once
// gridfuzz stand-in (kernels/vllm/shim/README.md): just enough of torch::stable::Tensor for vLLM's
// GGUF entry points to compile. Every member throws: gridfuzz never calls those entry points.
#include <cstdint>
#include <optional>  // torch's tensor.h brings it; vLLM's entry points use std::optional
#include <stdexcept>
#include <vector>

#include "torch/headeronly/core/ScalarType.h"

namespace torch::stable {

class Tensor {
 public:
  [[noreturn]] static void not_used() {
    throw std::logic_error("gridfuzz: vLLM's torch entry points are not called (kernels/vllm/shim/README.md)");
  }
  void* data_ptr() const { not_used(); }
  std::vector<std::int64_t> sizes() const { not_used(); }
  std::int64_t stride(std::int64_t) const { not_used(); }
  std::int64_t size(std::int64_t) const { not_used(); }
  torch::headeronly::ScalarType scalar_type() const { not_used(); }
  std::int32_t get_device_index() const { not_used(); }
};

}  // namespace torch::stable
