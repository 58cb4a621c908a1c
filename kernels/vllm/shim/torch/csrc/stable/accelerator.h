#pragma once
// gridfuzz stand-in (kernels/vllm/shim/README.md): torch's device guard, never constructed here.
#include <cstdint>

#include "torch/csrc/stable/tensor.h"

namespace torch::stable::accelerator {

class DeviceGuard {
 public:
  explicit DeviceGuard(std::int32_t) { Tensor::not_used(); }
};

}  // namespace torch::stable::accelerator
