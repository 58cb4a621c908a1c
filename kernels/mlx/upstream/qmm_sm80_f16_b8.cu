// MLX's qmm_sm80_kernel for cutlass::half_t activations and 8-bit weights (qmm_utils.h
// get_quant_cutlass_types: uint8_t), group size 64, tile_m 16/32/64 (qmm_sm80_instances.cuh).
#include "qmm_sm80_instances.cuh"

namespace gridfuzz::mlx {

std::vector<AotKernel> qmm_sm80_kernels_f16_b8() {
  return qmm_sm80_tiles<64, cutlass::half_t, uint8_t>("cutlass::half_t", "uint8_t");
}

}  // namespace gridfuzz::mlx
