// qmm instantiations for bf16 activations.
#include "kernel_functions.hpp"
#include "qmm_function_table.cuh"

namespace gridfuzz::affine::detail {

const device::Function& qmm_function_bf16(int bits, int tile_m, int tile_k, bool wide_index) {
  return qmm_select<__nv_bfloat16>(bits, tile_m, tile_k, wide_index, "bf16");
}

}  // namespace gridfuzz::affine::detail
