#pragma once
// The activation/output dtype of a vLLM GGUF call. Upstream's entry points allocate the output in
// the activations' scalar type (gguf_kernel.cu:112, :302, :404) and dispatch on it with
// VLLM_DISPATCH_FLOATING_TYPES (dispatch_utils.h:8-12: Float, Half, BFloat16) at
// gguf_kernel.cu:116 (ggml_mul_mat_vec_a8), :306 (ggml_moe_a8) and :408 (ggml_moe_a8_vec); each
// body quantizes with quantize_q8_1<scalar_t> and writes scalar_t outputs. The axis, the buffer
// element types, and the bounds the CPU reference needs for a 16-bit output. Pure host code.
#include <cstdint>
#include <string>

#include "../cuda/upstream_kernels.hpp"
#include "gridfuzz/kernel.hpp"
#include "gridfuzz/params.hpp"

namespace gridfuzz::vllm {

// "f32", "f16", "bf16"; anything else throws std::invalid_argument naming the axis.
ScalarKind parse_scalar_kind(const std::string& name);
ScalarKind scalar_kind_from(const Params& p);  // the `dtype` axis
ElementType element_type(ScalarKind k);

// The `dtype` axis every vLLM GGUF adapter offers: the three types upstream dispatches.
AxisSpec dtype_axis();

// `p` with dtype = f32, for the GGUF family's call-shape parser (whose own `dtype` is the output of
// gridfuzz's GGUF kernels, f32 or bf16): the vLLM adapters keep the activation dtype beside it.
Params with_f32_shape_dtype(const Params& p);

// The float value of a 16-bit element of type k (f16 or bf16): exact.
float widen16(ScalarKind k, std::uint16_t bits);

// The largest |fl(v) - v| when a finite float v with |v| <= magnitude is rounded to nearest into k
// (the output conversion scalar_t(float) of upstream's kernels, e.g. moe_vec.cuh:51): the unit
// roundoff u times magnitude (u = 2^-11 for f16, 2^-8 for bf16, 0 for f32) plus half the spacing of
// k's subnormals (2^-25 for f16, 2^-134 for bf16), so that an underflowing value is covered too.
// Not a bound past k's largest finite value (65504 for f16): there the output is inf.
double output_rounding_bound(ScalarKind k, double magnitude);

}  // namespace gridfuzz::vllm
