#pragma once
// Ahead-of-time instantiation of MLX's qmm_sm80_kernel (device/qmm_sm80.cuh of MLX 846d176,
// unmodified) with the template arguments MLX's qmm_sm80 host function (qmm/qmm_sm80.cu:17-22,
// 49-56) names for NVRTC: <group_size, T, Q, S = T, Shape<Int<tile_m>, Int<128>, Int<max(64,
// group_size)>>>. The name is formatted by upstream's own code (cutlass_utils.cuh
// cta_tiler_to_string) with the same pattern as qmm_sm80.cu:50-56. Taking the kernel's address
// here instantiates it in this translation unit (CUDA 13 makes a template kernel's host stub
// static, so the address must come from the unit that instantiates it).
#include <algorithm>

#include "aot_kernels.hpp"
#include "mlx/backend/cuda/cutlass_utils.cuh"
#include "mlx/backend/cuda/device/qmm_sm80.cuh"

namespace gridfuzz::mlx {

template <int GroupSize, class T, class Q, int TileM>
AotKernel qmm_sm80_instance(const char* t_name, const char* q_name) {
  using Tiler = cute::Shape<cute::Int<TileM>, cute::Int<128>, cute::Int<std::max(64, GroupSize)>>;
  // The kernel's signature (device/qmm_sm80.cuh:285-295); nvcc cannot deduce it from the address.
  using Kernel = void (*)(const T*, const Q*, const T*, const T*, const uint32_t*, const uint32_t*, T*, int, int, int,
                          int, bool);
  const Kernel fn = &::mlx::core::cu::qmm_sm80_kernel<GroupSize, T, Q, T, Tiler>;
  return {fmt::format("mlx::core::cu::qmm_sm80_kernel<{}, {}, {}, {}, {}>", GroupSize, t_name, q_name, t_name,
                      ::mlx::core::cta_tiler_to_string(Tiler{})),
          reinterpret_cast<const void*>(fn)};
}

// tile_m 16, 32, 64: qmm_sm80.cu:18 clamps next_power_of_2(m) to [16, 64].
template <int GroupSize, class T, class Q>
std::vector<AotKernel> qmm_sm80_tiles(const char* t_name, const char* q_name) {
  return {qmm_sm80_instance<GroupSize, T, Q, 16>(t_name, q_name), qmm_sm80_instance<GroupSize, T, Q, 32>(t_name, q_name),
          qmm_sm80_instance<GroupSize, T, Q, 64>(t_name, q_name)};
}

}  // namespace gridfuzz::mlx
