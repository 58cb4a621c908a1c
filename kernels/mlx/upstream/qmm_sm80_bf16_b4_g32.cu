// MLX's qmm_sm80_kernel for cutlass::bfloat16_t activations and 4-bit weights (qmm_utils.h
// get_quant_cutlass_types: cutlass::uint4b_t) at group size 32, tile_m 16/32/64
// (qmm_sm80_instances.cuh; tile_k = max(64, 32), qmm_sm80.cu:20). The other group-32 forms (f16,
// 8-bit) are not built: docs/upstream/mlx.md, "What is built".
#include "qmm_sm80_instances.cuh"

namespace gridfuzz::mlx {

std::vector<AotKernel> qmm_sm80_kernels_bf16_b4_g32() {
  return qmm_sm80_tiles<32, cutlass::bfloat16_t, cutlass::uint4b_t>("cutlass::bfloat16_t", "cutlass::uint4b_t");
}

}  // namespace gridfuzz::mlx
