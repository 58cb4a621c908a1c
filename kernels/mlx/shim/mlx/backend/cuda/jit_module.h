#pragma once
// Stand-in for MLX's mlx/backend/cuda/jit_module.h (shadows upstream's). MLX compiles its qmm
// kernels with NVRTC at run time and looks them up by name; gridfuzz compiles the same template
// instantiations ahead of time (kernels/mlx/upstream/qmm_sm80_*.cu) and this module finds them
// by the name MLX's host code formats. The configure callback (MLX raises the kernel's dynamic
// shared memory limit there) is not called: gridfuzz's launcher raises it from the launch spec.
#include <string>

#include "mlx/backend/cuda/device.h"

namespace mlx::core::cu {

// The ahead-of-time kernel MLX calls `name`, or nullptr (kernels/mlx/upstream/aot_kernels.cpp).
const void* find_aot_kernel(const std::string& name);

class JitModule {
 public:
  template <class Configure>
  KernelRef get_kernel(const std::string& name, Configure&&) {
    return {find_aot_kernel(name), name};
  }
  KernelRef get_kernel(const std::string& name) { return {find_aot_kernel(name), name}; }
};

template <class Builder>
JitModule& get_jit_module(Device&, const std::string&, Builder&&) {
  static JitModule module;
  return module;
}

}  // namespace mlx::core::cu
