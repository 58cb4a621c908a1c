#pragma once
// Host handles of the compiled moe_vec / mmvq kernels, one per (geometry family, index width,
// type, dtype).
#include "call_shape.hpp"
#include "gridfuzz/device/function.hpp"
#include "gridfuzz/gguf/formats.hpp"
#include "launch_geometry.hpp"

namespace gridfuzz::gguf {

enum class GemvKernelFamily { legacy, tiled_pairs_x, tiled_rows_x, by_expert };

// Looked up once per process (needs a current context) and cached. `width` selects the
// gemv_tiled instantiation; legacy has one (its own upstream index types) and ignores it.
const device::Function& gemv_function(GemvKernelFamily family, GemvIndexWidth width, QuantType t, OutDtype d);

// Symbols, one function per translation unit so the instantiations compile in parallel.
const void* gemv_legacy_symbol(QuantType t, OutDtype d);
const void* gemv_pairs_x_symbol(QuantType t, OutDtype d, GemvIndexWidth w);
const void* gemv_rows_x_symbol(QuantType t, OutDtype d, GemvIndexWidth w);
const void* gemv_by_expert_symbol(QuantType t, OutDtype d, GemvIndexWidth w);

// by_expert's pre-pass (gemv_by_expert.cuh); `width` picks the list entry type of scatter and
// one_block (count and scan have one instantiation each).
enum class ExpertGroupStep { count, scan, scatter, one_block };
const void* expert_group_symbol(ExpertGroupStep step, GemvIndexWidth width);
const device::Function& expert_group_function(ExpertGroupStep step, GemvIndexWidth width);

}  // namespace gridfuzz::gguf
