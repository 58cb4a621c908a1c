// Instantiations of the pairs-on-x moe_vec/mmvq kernels for every weight type, output dtype and
// index width.
#include "gemv_tiled_symbol.cuh"

namespace gridfuzz::gguf {

const void* gemv_pairs_x_symbol(QuantType t, OutDtype d, GemvIndexWidth w) { return gemv_tiled_symbol<true>(t, d, w); }

}  // namespace gridfuzz::gguf
