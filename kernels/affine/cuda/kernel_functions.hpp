#pragma once
// The compiled instantiations of the affine kernels, looked up by their template parameters.
// Host-only interface (no CUDA syntax), so the adapters can be plain C++.
#include "gridfuzz/affine/formats.hpp"
#include "gridfuzz/device/function.hpp"

namespace gridfuzz::affine {

// Throws std::invalid_argument for a combination that is not compiled.
const device::Function& qmm_function(Dtype dtype, int bits, int tile_m, int tile_k, bool wide_index);
const device::Function& qmv_function(Dtype dtype, int bits, bool wide_index);
// qmv_stream (4-bit only): the M < 8 path of affine.qmm's "hopper" variant.
const device::Function& qmv_stream_function(Dtype dtype, bool wide_index);
// qmm_small (4-bit only): the 2-64 token path of affine.qmm's "hopper" variant; token_tiles 1, 2, 4 or
// 8; k_parts 2 or 4.
const device::Function& qmm_small_function(Dtype dtype, int token_tiles, int k_parts, bool wide_index);

namespace detail {
const device::Function& qmm_function_f16(int bits, int tile_m, int tile_k, bool wide_index);
const device::Function& qmm_function_bf16(int bits, int tile_m, int tile_k, bool wide_index);
}  // namespace detail

}  // namespace gridfuzz::affine
