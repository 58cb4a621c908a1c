// MLX's qmm_sm80_kernel for cutlass::bfloat16_t activations and 4-bit weights (qmm_utils.h
// get_quant_cutlass_types: cutlass::uint4b_t), group size 64, tile_m 16/32/64 (qmm_sm80_instances.cuh).
#include "qmm_sm80_instances.cuh"

namespace gridfuzz::mlx {

std::vector<AotKernel> qmm_sm80_kernels_bf16_b4() {
  return qmm_sm80_tiles<64, cutlass::bfloat16_t, cutlass::uint4b_t>("cutlass::bfloat16_t", "cutlass::uint4b_t");
}

}  // namespace gridfuzz::mlx
