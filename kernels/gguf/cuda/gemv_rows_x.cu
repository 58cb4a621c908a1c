// Instantiations of the rows-on-x moe_vec/mmvq kernels (rows_x, zchunk) for every weight type,
// output dtype and index width.
#include "gemv_tiled_symbol.cuh"

namespace gridfuzz::gguf {

const void* gemv_rows_x_symbol(QuantType t, OutDtype d, GemvIndexWidth w) { return gemv_tiled_symbol<false>(t, d, w); }

}  // namespace gridfuzz::gguf
