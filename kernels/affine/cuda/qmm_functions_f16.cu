// qmm instantiations for fp16 activations.
#include "kernel_functions.hpp"
#include "qmm_function_table.cuh"

namespace gridfuzz::affine::detail {

const device::Function& qmm_function_f16(int bits, int tile_m, int tile_k, bool wide_index) {
  return qmm_select<__half>(bits, tile_m, tile_k, wide_index, "f16");
}

}  // namespace gridfuzz::affine::detail
