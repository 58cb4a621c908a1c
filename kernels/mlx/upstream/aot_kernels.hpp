#pragma once
// The MLX kernels gridfuzz compiles ahead of time where MLX compiles them with NVRTC at run time
// (qmm_sm80), each under the name MLX's host code gives it (the NVRTC name expression). The
// JIT-module stand-in (kernels/mlx/shim/mlx/backend/cuda/jit_module.h) looks them up here.
#include <string>
#include <vector>

namespace gridfuzz::mlx {

struct AotKernel {
  std::string name;                // e.g. "mlx::core::cu::qmm_sm80_kernel<64, cutlass::bfloat16_t, ...>"
  const void* function = nullptr;  // the __global__ symbol, for device::Function::from_symbol
};

// One translation unit per activation type and bit width (they compile slowly; kept apart so
// that a build spreads them over its jobs): tile_m 16, 32 and 64 at group size 64.
std::vector<AotKernel> qmm_sm80_kernels_bf16_b4();
std::vector<AotKernel> qmm_sm80_kernels_bf16_b8();
std::vector<AotKernel> qmm_sm80_kernels_f16_b4();
std::vector<AotKernel> qmm_sm80_kernels_f16_b8();
// bf16, 4-bit at group sizes 32 and 128 (the other types at those sizes are not built).
std::vector<AotKernel> qmm_sm80_kernels_bf16_b4_g32();
std::vector<AotKernel> qmm_sm80_kernels_bf16_b4_g128();

// All of the above.
const std::vector<AotKernel>& aot_kernels();

}  // namespace gridfuzz::mlx
