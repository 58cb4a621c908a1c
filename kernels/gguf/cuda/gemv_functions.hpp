#pragma once
// Host handles of the compiled moe_vec / mmvq kernels, one per (geometry family, type, dtype).
#include "call_shape.hpp"
#include "gridfuzz/device/function.hpp"
#include "gridfuzz/gguf/quant_type.hpp"

namespace gridfuzz::gguf {

enum class GemvKernelFamily { legacy, wide_pairs_x, wide_rows_x };

// Looked up once per process (needs a current context) and cached.
const device::Function& gemv_function(GemvKernelFamily family, QuantType t, OutDtype d);

// Symbols, one function per translation unit so the instantiations compile in parallel.
const void* gemv_legacy_symbol(QuantType t, OutDtype d);
const void* gemv_pairs_x_symbol(QuantType t, OutDtype d);
const void* gemv_rows_x_symbol(QuantType t, OutDtype d);

}  // namespace gridfuzz::gguf
