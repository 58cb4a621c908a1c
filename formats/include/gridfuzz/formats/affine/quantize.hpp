#pragma once
// MLX-style affine quantization of float weights, one group of group_size consecutive values
// along K at a time (docs/KERNELS.md, "MLX affine quantization").
#include <cstddef>
#include <cstdint>
#include <span>

#include "gridfuzz/formats/affine/dtype.hpp"
#include "gridfuzz/formats/affine/params.hpp"
#include "gridfuzz/formats/affine/quantized_matrix.hpp"

namespace gridfuzz::formats::affine {

// Lower bound on |scale|: keeps a constant group from dividing by zero.
inline constexpr float kScaleFloor = 1e-7f;

struct GroupScaleBias {
  float scale = 0;  // may be negative (see affine_group_scale_bias)
  float bias = 0;
};

// Round to nearest integer, ties to even (numpy/MLX `round`). One named place so the tie rule
// can be changed if the upstream kernels turn out to differ.
float round_half_even(float x);

// The group's scale and bias, computed in float:
//   scale = max((wmax - wmin) / (2^bits - 1), 1e-7)
//   |wmin| > |wmax|: edge = wmin, scale stays positive; otherwise edge = wmax, scale negated
//   q0 = round(edge / scale); q0 != 0: scale = edge / q0, bias = edge; q0 == 0: bias = 0.
// Pinning the edge to an exact grid point makes the larger-magnitude end point representable.
GroupScaleBias affine_group_scale_bias(std::span<const float> group, int bits);

// q = clip(round((w - bias) / scale), 0, 2^bits - 1).
std::uint32_t quantize_value(float w, GroupScaleBias sb, int bits);

// Quantizes w [rows, cols] (row-major floats). q is computed from the float scale/bias; the
// stored scales/biases are those values rounded to scale_dtype (which must be 16-bit).
// Throws std::invalid_argument with the validate_shape message on unsupported input, or when
// w.size() != rows*cols.
QuantizedMatrix quantize(std::span<const float> w, std::size_t rows, std::size_t cols,
                         const AffineParams& params, Dtype scale_dtype);

}  // namespace gridfuzz::formats::affine
