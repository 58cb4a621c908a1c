#include "gridfuzz/formats/affine/quantize.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "gridfuzz/formats/affine/dequantize.hpp"
#include "gridfuzz/formats/affine/params.hpp"

namespace gridfuzz::formats::affine {
namespace {

std::vector<std::uint32_t> quantize_group(const std::vector<float>& group, GroupScaleBias sb,
                                          int bits) {
  std::vector<std::uint32_t> q;
  for (float w : group) q.push_back(quantize_value(w, sb, bits));
  return q;
}

TEST(AffineQuantize, RoundHalfEven) {
  EXPECT_EQ(round_half_even(0.5f), 0.0f);
  EXPECT_EQ(round_half_even(1.5f), 2.0f);
  EXPECT_EQ(round_half_even(2.5f), 2.0f);
  EXPECT_EQ(round_half_even(-1.5f), -2.0f);
  EXPECT_EQ(round_half_even(-2.5f), -2.0f);
  EXPECT_EQ(round_half_even(2.5001f), 3.0f);
  EXPECT_EQ(round_half_even(-0.4f), 0.0f);
}

// |wmin| > |wmax|: the grid starts at wmin and steps upwards with a positive scale.
TEST(AffineQuantize, PositiveScaleGroup) {
  const std::vector<float> group = {-3.0f, -1.0f, 0.0f, 1.5f};
  // range 4.5 / 3 steps = 1.5; q0 = round(-3 / 1.5) = -2; scale = -3 / -2 = 1.5; bias = -3.
  const GroupScaleBias sb = affine_group_scale_bias(group, 2);
  EXPECT_EQ(sb.scale, 1.5f);
  EXPECT_EQ(sb.bias, -3.0f);
  // (w + 3) / 1.5 = 0, 1.33, 2, 3
  EXPECT_EQ(quantize_group(group, sb, 2), (std::vector<std::uint32_t>{0, 1, 2, 3}));
}

// |wmin| <= |wmax|: the grid starts at wmax and the scale is NEGATIVE.
TEST(AffineQuantize, NegativeScaleGroup) {
  const std::vector<float> group = {-1.0f, 0.0f, 0.7f, 2.0f};
  // range 3 / 3 = 1, negated: -1; q0 = round(2 / -1) = -2; scale = 2 / -2 = -1; bias = 2.
  const GroupScaleBias sb = affine_group_scale_bias(group, 2);
  EXPECT_EQ(sb.scale, -1.0f);
  EXPECT_EQ(sb.bias, 2.0f);
  // (w - 2) / -1 = 3, 2, 1.3, 0
  EXPECT_EQ(quantize_group(group, sb, 2), (std::vector<std::uint32_t>{3, 2, 1, 0}));
}

// Re-deriving the scale from the rounded edge puts 0 exactly on the grid.
TEST(AffineQuantize, EdgeRoundingMakesZeroExact) {
  const std::vector<float> group = {-1.0f, 0.0f, 0.9f};
  // range 1.9 / 15 = 0.12667; q0 = round(-1 / 0.12667) = round(-7.89) = -8; scale = 0.125.
  const GroupScaleBias sb = affine_group_scale_bias(group, 4);
  EXPECT_EQ(sb.scale, 0.125f);
  EXPECT_EQ(sb.bias, -1.0f);
  // (w + 1) / 0.125 = 0, 8, 15.2
  EXPECT_EQ(quantize_group(group, sb, 4), (std::vector<std::uint32_t>{0, 8, 15}));
}

// Equal magnitudes take the negative branch, and the rounded edge shrinks the grid so that the
// far end point is clipped: the error there exceeds |scale|/2 (the reason for the stated bound).
TEST(AffineQuantize, EqualMagnitudesGoNegativeAndClip) {
  const std::vector<float> group = {-1.0f, 1.0f};
  // range 2 / 3, negated; q0 = round(1 / -0.667) = round(-1.5) = -2; scale = -0.5; bias = 1.
  const GroupScaleBias sb = affine_group_scale_bias(group, 2);
  EXPECT_EQ(sb.scale, -0.5f);
  EXPECT_EQ(sb.bias, 1.0f);
  // (-1 - 1) / -0.5 = 4 -> clipped to 3, which dequantizes to -0.5, an error of 0.5 = |scale|.
  EXPECT_EQ(quantize_group(group, sb, 2), (std::vector<std::uint32_t>{3, 0}));
}

TEST(AffineQuantize, ConstantGroupsUseTheScaleFloor) {
  {
    // All zero: range 0 -> scale 1e-7, negated (|wmin| == |wmax|); q0 = 0 -> bias 0.
    const std::vector<float> zeros(32, 0.0f);
    const GroupScaleBias sb = affine_group_scale_bias(zeros, 4);
    EXPECT_EQ(sb.scale, -1e-7f);
    EXPECT_EQ(sb.bias, 0.0f);
    EXPECT_EQ(quantize_value(0.0f, sb, 4), 0u);
  }
  {
    // 0.3: q0 = round(0.3 / -1e-7) = -3e6, so scale = 0.3 / -3e6 ~ -1e-7 and bias = 0.3 exactly.
    const std::vector<float> group(32, 0.3f);
    const GroupScaleBias sb = affine_group_scale_bias(group, 8);
    EXPECT_LT(sb.scale, 0.0f);
    EXPECT_NEAR(sb.scale, -1e-7f, 1e-12f);
    EXPECT_EQ(sb.bias, 0.3f);
    EXPECT_EQ(quantize_value(0.3f, sb, 8), 0u);
  }
  {
    // -0.3: |wmin| == |wmax| again -> negative scale; edge = -0.3, q0 = +3e6.
    const std::vector<float> group(32, -0.3f);
    const GroupScaleBias sb = affine_group_scale_bias(group, 3);
    EXPECT_LT(sb.scale, 0.0f);
    EXPECT_EQ(sb.bias, -0.3f);
    EXPECT_EQ(quantize_value(-0.3f, sb, 3), 0u);
  }
  {
    // 1e-8 is below half a floor step: q0 = round(-0.1) = 0, so bias stays 0 and w -> 0.
    const std::vector<float> group(32, 1e-8f);
    const GroupScaleBias sb = affine_group_scale_bias(group, 4);
    EXPECT_EQ(sb.scale, -1e-7f);
    EXPECT_EQ(sb.bias, 0.0f);
    EXPECT_EQ(quantize_value(1e-8f, sb, 4), 0u);
  }
}

TEST(AffineQuantize, ConstantZeroGroupStoredPatterns) {
  const std::vector<float> zeros(64, 0.0f);
  // -1e-7 in f16 is 1.68 units of 2^-24 -> 2 units: 0x8002. In bf16: 1.678 * 2^-24 -> 0xB3D7.
  const QuantizedMatrix h = quantize(zeros, 1, 64, {4, 64}, Dtype::float16);
  EXPECT_EQ(h.scales[0], 0x8002);
  EXPECT_EQ(h.biases[0], 0x0000);
  const QuantizedMatrix b = quantize(zeros, 1, 64, {4, 64}, Dtype::bfloat16);
  EXPECT_EQ(b.scales[0], 0xB3D7);
  for (std::size_t k = 0; k < 64; ++k) EXPECT_EQ(dequantize_element(b, 0, k), 0.0);
}

// Each group (r, g) of a hand-built matrix gets its own range, so a mix-up of rows, groups or
// word offsets shows. Group idx = 2r + g, c = idx + 1, values -2c + 0.2c * (i % 16):
// wmin = -2c, wmax = c, scale 3c/15 = 0.2c, q0 = -10, bias = -2c, q_i = i % 16.
TEST(AffineQuantize, MatrixLayoutRowsAndGroups) {
  const std::size_t rows = 2, cols = 64;
  std::vector<float> w(rows * cols);
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t k = 0; k < cols; ++k) {
      const float c = static_cast<float>(2 * r + k / 32 + 1);
      w[r * cols + k] = -2.0f * c + 0.2f * c * static_cast<float>(k % 16);
    }
  }
  const QuantizedMatrix m = quantize(w, rows, cols, {4, 32}, Dtype::bfloat16);
  ASSERT_EQ(m.words.size(), rows * cols * 4 / 32);
  ASSERT_EQ(m.scales.size(), 4u);
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t g = 0; g < 2; ++g) {
      const float c = static_cast<float>(2 * r + g + 1);
      EXPECT_EQ(m.bias(r, g * 32), -2.0f * c);
      EXPECT_NEAR(m.scale(r, g * 32), 0.2f * c, 0.2f * c * 0x1p-8f);
      EXPECT_EQ(m.scales[r * 2 + g], to_16bit_pattern(m.scale(r, g * 32), Dtype::bfloat16));
    }
    for (std::size_t k = 0; k < cols; ++k) EXPECT_EQ(m.quant(r, k), k % 16) << r << "," << k;
  }
  // Row words: 64 four-bit values = 8 words per row; row 1 starts at word 8.
  EXPECT_EQ(m.words_per_row(), 8u);
  EXPECT_EQ(m.row_words(1).data(), m.words.data() + 8);
  EXPECT_EQ(m.words[0], 0x76543210u);  // q = 0..7 in the first word
  EXPECT_EQ(m.words[1], 0xFEDCBA98u);  // q = 8..15
}

TEST(AffineQuantize, OddWidthsUseWholeWords) {
  std::vector<float> w(2 * 128);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = std::sin(static_cast<float>(i));
  for (int bits : {3, 5, 6}) {
    const QuantizedMatrix m = quantize(w, 2, 128, {bits, 128}, Dtype::float16);
    EXPECT_EQ(m.words_per_row(), 128u * static_cast<std::size_t>(bits) / 32);
    EXPECT_EQ(m.words.size(), 2 * m.words_per_row());
    EXPECT_EQ(m.scales.size(), 2u);
  }
}

// ---- properties ----

struct RandomCase {
  AffineParams params;
  Dtype dtype;
  std::size_t rows;
  std::size_t cols;
  std::vector<float> w;
};

// Groups around a random offset with a random spread (sometimes zero), so both scale signs,
// floored scales, subnormal f16 scales and offset groups all occur. |w| stays below 200 so f16
// cannot overflow.
RandomCase random_case() {
  RandomCase c;
  c.params.bits = *rc::gen::elementOf(kSupportedBits);
  c.params.group_size = *rc::gen::elementOf(kSupportedGroupSizes);
  c.dtype = *rc::gen::element(Dtype::float16, Dtype::bfloat16);
  c.rows = *rc::gen::inRange<std::size_t>(1, 4);
  c.cols = static_cast<std::size_t>(c.params.group_size) * *rc::gen::inRange<std::size_t>(1, 4);
  const std::size_t groups = c.rows * c.cols / static_cast<std::size_t>(c.params.group_size);
  for (std::size_t g = 0; g < groups; ++g) {
    const double offset = *rc::gen::inRange(-10000, 10001) / 100.0;
    const int spread_exp = *rc::gen::inRange(-9, 3);
    const bool constant = *rc::gen::inRange(0, 16) == 0;
    const double spread = constant ? 0.0 : std::pow(10.0, spread_exp) * *rc::gen::inRange(1, 100);
    for (int i = 0; i < c.params.group_size; ++i) {
      const double u = *rc::gen::inRange(-1000000, 1000001) / 1e6;
      c.w.push_back(static_cast<float>(offset + spread * u));
    }
  }
  return c;
}

struct GroupStats {
  double wmin, wmax, nominal_scale, magnitude;
};

GroupStats group_stats(const RandomCase& c, std::size_t row, std::size_t group) {
  const std::size_t gs = static_cast<std::size_t>(c.params.group_size);
  const auto first = c.w.begin() + static_cast<std::ptrdiff_t>(row * c.cols + group * gs);
  const auto [lo, hi] = std::minmax_element(first, first + static_cast<std::ptrdiff_t>(gs));
  GroupStats s{*lo, *hi, 0, 0};
  s.nominal_scale = std::max((s.wmax - s.wmin) / max_quant(c.params.bits), 1e-7);
  s.magnitude = std::max(std::fabs(s.wmin), std::fabs(s.wmax));
  return s;
}

// Stated bound, per element, for dequantization from the STORED scale/bias:
//   |w - (s'q + b')| <= S + n*(1.5*u*S + h) + (u*A + h) + 8*eps32*(A + 1.5*n*S)
// S = max((wmax - wmin)/n, 1e-7) the nominal step, n = 2^bits - 1, A = max(|wmin|, |wmax|),
// u = unit roundoff of the storage type (2^-11 f16, 2^-8 bf16), h = half its smallest subnormal
// (2^-25 f16, 2^-134 bf16), eps32 = 2^-23 for the float arithmetic.
// Why S and not |scale|/2: exact arithmetic gives |w - (sq + b)| <= |s|/2 where w is inside the
// grid, but rounding the edge (q0) can shrink the grid by up to a factor n/(n+1), and a clipped
// end point is then off by at most n*S/(n+1) < S; |s| itself is at most 1.5*S.
RC_GTEST_PROP(AffineQuantize, DequantizationErrorBound, ()) {
  const RandomCase c = random_case();
  const QuantizedMatrix m = quantize(c.w, c.rows, c.cols, c.params, c.dtype);
  const double n = max_quant(c.params.bits);
  const double u = c.dtype == Dtype::float16 ? 0x1p-11 : 0x1p-8;
  const double h = c.dtype == Dtype::float16 ? 0x1p-25 : 0x1p-134;
  for (std::size_t r = 0; r < c.rows; ++r) {
    for (std::size_t k = 0; k < c.cols; ++k) {
      const GroupStats s = group_stats(c, r, k / static_cast<std::size_t>(c.params.group_size));
      const double S = s.nominal_scale;
      const double bound = S + n * (1.5 * u * S + h) + (u * s.magnitude + h) +
                           8 * 0x1p-23 * (s.magnitude + 1.5 * n * S);
      const double w = c.w[r * c.cols + k];
      const double err = std::fabs(w - dequantize_element(m, r, k));
      RC_ASSERT(err <= bound);
      // Unrounded scales never exceed 1.5 nominal steps (the premise of the bound).
      const std::size_t slot =
          r * m.groups_per_row() + k / static_cast<std::size_t>(c.params.group_size);
      RC_ASSERT(std::fabs(static_cast<double>(m.scales_f32[slot])) <= 1.5 * S * (1 + 1e-6));
    }
  }
}

// q is the nearest point of the group's grid {bias + scale*j : j in [0, n]} (float scale/bias):
// no neighbouring grid point is closer, so clipping goes to the nearer end as well.
RC_GTEST_PROP(AffineQuantize, QuantIsNearestGridPoint, ()) {
  const RandomCase c = random_case();
  const QuantizedMatrix m = quantize(c.w, c.rows, c.cols, c.params, c.dtype);
  const int n = max_quant(c.params.bits);
  for (std::size_t r = 0; r < c.rows; ++r) {
    for (std::size_t k = 0; k < c.cols; ++k) {
      const std::size_t slot =
          r * m.groups_per_row() + k / static_cast<std::size_t>(c.params.group_size);
      const double s = m.scales_f32[slot];
      const double b = m.biases_f32[slot];
      const double w = c.w[r * c.cols + k];
      const int q = static_cast<int>(m.quant(r, k));
      RC_ASSERT(q >= 0 && q <= n);
      const double slack = 4 * 0x1p-23 * (std::fabs(w) + std::fabs(b) + n * std::fabs(s));
      const double err = std::fabs(w - (b + s * q));
      if (q > 0) RC_ASSERT(err <= std::fabs(w - (b + s * (q - 1))) + slack);
      if (q < n) RC_ASSERT(err <= std::fabs(w - (b + s * (q + 1))) + slack);
    }
  }
}

// The sign rule and the exact edge: |wmin| > |wmax| -> positive scale anchored at wmin, else
// negative scale anchored at wmax; when the range is above the floor, bias is that end point
// and the end point quantizes to 0. The stored scale keeps the sign.
RC_GTEST_PROP(AffineQuantize, ScaleSignAndEdge, ()) {
  const RandomCase c = random_case();
  const QuantizedMatrix m = quantize(c.w, c.rows, c.cols, c.params, c.dtype);
  const std::size_t gs = static_cast<std::size_t>(c.params.group_size);
  for (std::size_t r = 0; r < c.rows; ++r) {
    for (std::size_t g = 0; g < m.groups_per_row(); ++g) {
      const GroupStats s = group_stats(c, r, g);
      const std::size_t slot = r * m.groups_per_row() + g;
      const bool anchor_min = std::fabs(s.wmin) > std::fabs(s.wmax);
      RC_ASSERT((m.scales_f32[slot] > 0) == anchor_min);
      RC_ASSERT(((m.scales[slot] & 0x8000) == 0) == anchor_min);
      const double edge = anchor_min ? s.wmin : s.wmax;
      if ((s.wmax - s.wmin) / max_quant(c.params.bits) > 1e-7) {
        RC_ASSERT(static_cast<double>(m.biases_f32[slot]) == edge);
        RC_ASSERT(m.biases[slot] == to_16bit_pattern(static_cast<float>(edge), c.dtype));
        for (std::size_t i = 0; i < gs; ++i) {
          if (c.w[r * c.cols + g * gs + i] == edge) RC_ASSERT(m.quant(r, g * gs + i) == 0u);
        }
      }
    }
  }
}

// A group whose values are all positive (|wmin| <= |wmax|) always gets a negative scale, and
// dequantization still lands within the stated bound (checked element-wise here with the
// group's own numbers).
RC_GTEST_PROP(AffineQuantize, NegativeScaleStillApproximates, ()) {
  const int bits = *rc::gen::elementOf(kSupportedBits);
  const Dtype dtype = *rc::gen::element(Dtype::float16, Dtype::bfloat16);
  const float low = *rc::gen::inRange(1, 1000) / 100.0f;
  const float width = *rc::gen::inRange(1, 1000) / 100.0f;
  std::vector<float> w(64);
  for (std::size_t i = 0; i < w.size(); ++i) {
    w[i] = low + width * static_cast<float>(*rc::gen::inRange(0, 1001)) / 1000.0f;
  }
  const QuantizedMatrix m = quantize(w, 1, 64, {bits, 64}, dtype);
  RC_ASSERT(m.scales_f32[0] < 0.0f);
  RC_ASSERT(m.scale(0, 0) < 0.0f);
  const auto [lo, hi] = std::minmax_element(w.begin(), w.end());
  const double n = max_quant(bits);
  const double S = std::max((*hi - *lo) / n, 1e-7);
  const double u = dtype == Dtype::float16 ? 0x1p-11 : 0x1p-8;
  const double h = dtype == Dtype::float16 ? 0x1p-25 : 0x1p-134;
  const double bound =
      S + n * (1.5 * u * S + h) + (u * *hi + h) + 8 * 0x1p-23 * (*hi + 1.5 * n * S);
  for (std::size_t k = 0; k < w.size(); ++k) {
    RC_ASSERT(std::fabs(w[k] - dequantize_element(m, 0, k)) <= bound);
  }
}

}  // namespace
}  // namespace gridfuzz::formats::affine
