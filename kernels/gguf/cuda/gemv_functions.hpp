#pragma once
// Host handles of the compiled moe_vec / mmvq kernels, one per (geometry family, index width,
// type, dtype).
#include "call_shape.hpp"
#include "gridfuzz/device/function.hpp"
#include "gridfuzz/gguf/formats.hpp"
#include "launch_geometry.hpp"

namespace gridfuzz::gguf {

enum class GemvKernelFamily { legacy, tiled_pairs_x, tiled_rows_x };

// Looked up once per process (needs a current context) and cached. `width` selects the
// gemv_tiled instantiation; legacy has one (its own upstream index types) and ignores it.
const device::Function& gemv_function(GemvKernelFamily family, GemvIndexWidth width, QuantType t, OutDtype d);

// Symbols, one function per translation unit so the instantiations compile in parallel.
const void* gemv_legacy_symbol(QuantType t, OutDtype d);
const void* gemv_pairs_x_symbol(QuantType t, OutDtype d, GemvIndexWidth w);
const void* gemv_rows_x_symbol(QuantType t, OutDtype d, GemvIndexWidth w);

}  // namespace gridfuzz::gguf
