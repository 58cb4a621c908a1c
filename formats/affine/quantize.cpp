#include "gridfuzz/formats/affine/quantize.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "gridfuzz/formats/affine/bit_packing.hpp"

namespace gridfuzz::formats::affine {

float round_half_even(float x) {
  // nearbyint rounds in the current mode, which is round-to-nearest-even unless someone changed
  // it; the project never does.
  return std::nearbyint(x);
}

GroupScaleBias affine_group_scale_bias(std::span<const float> group, int bits) {
  if (group.empty()) throw std::invalid_argument("affine_group_scale_bias: empty group");
  const auto [min_it, max_it] = std::ranges::minmax_element(group);
  const float wmin = *min_it;
  const float wmax = *max_it;
  const float steps = static_cast<float>(max_quant(bits));

  float scale = std::max((wmax - wmin) / steps, kScaleFloor);
  // Anchor the grid at the end point with the larger magnitude; the grid then runs from that
  // edge towards the other end with q >= 0, which needs a negative step when the edge is wmax.
  const bool anchor_at_min = std::fabs(wmin) > std::fabs(wmax);
  if (!anchor_at_min) scale = -scale;
  const float edge = anchor_at_min ? wmin : wmax;

  const float q0 = round_half_even(edge / scale);
  if (q0 != 0.0f) return {edge / q0, edge};
  return {scale, 0.0f};
}

std::uint32_t quantize_value(float w, GroupScaleBias sb, int bits) {
  const float q = round_half_even((w - sb.bias) / sb.scale);
  return static_cast<std::uint32_t>(std::clamp(q, 0.0f, static_cast<float>(max_quant(bits))));
}

QuantizedMatrix quantize(std::span<const float> w, std::size_t rows, std::size_t cols,
                         const AffineParams& params, Dtype scale_dtype) {
  throw_if_error(validate_shape(params, rows, cols));
  if (!is_16bit(scale_dtype)) {
    throw std::invalid_argument("affine: scales/biases are stored as f16 or bf16, not " +
                                to_string(scale_dtype));
  }
  if (w.size() != rows * cols) {
    throw std::invalid_argument("affine: weights hold " + std::to_string(w.size()) +
                                " values, shape needs " + std::to_string(rows * cols));
  }
  if (!std::ranges::all_of(w, [](float v) { return std::isfinite(v); })) {
    throw std::invalid_argument("affine: weights must be finite");
  }

  QuantizedMatrix m;
  m.params = params;
  m.scale_dtype = scale_dtype;
  m.rows = rows;
  m.cols = cols;
  const std::size_t groups = m.groups_per_row();
  const std::size_t group_size = static_cast<std::size_t>(params.group_size);
  m.words.assign(rows * m.words_per_row(), 0u);
  m.scales.resize(rows * groups);
  m.biases.resize(rows * groups);
  m.scales_f32.resize(rows * groups);
  m.biases_f32.resize(rows * groups);

  for (std::size_t r = 0; r < rows; ++r) {
    std::uint32_t* row_words = m.words.data() + r * m.words_per_row();
    for (std::size_t g = 0; g < groups; ++g) {
      const std::size_t first = r * cols + g * group_size;
      const auto group = w.subspan(first, group_size);
      const GroupScaleBias sb = affine_group_scale_bias(group, params.bits);
      const std::size_t slot = r * groups + g;
      m.scales_f32[slot] = sb.scale;
      m.biases_f32[slot] = sb.bias;
      m.scales[slot] = to_16bit_pattern(sb.scale, scale_dtype);
      m.biases[slot] = to_16bit_pattern(sb.bias, scale_dtype);
      for (std::size_t i = 0; i < group_size; ++i) {
        pack_element(row_words, g * group_size + i, params.bits,
                     quantize_value(group[i], sb, params.bits));
      }
    }
  }
  return m;
}

}  // namespace gridfuzz::formats::affine
