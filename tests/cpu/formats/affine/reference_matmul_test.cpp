#include "gridfuzz/formats/affine/reference_matmul.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "gridfuzz/formats/affine/dequantize.hpp"
#include "gridfuzz/formats/affine/half_types.hpp"
#include "gridfuzz/formats/affine/quantize.hpp"
#include "test_support.hpp"

namespace gridfuzz::formats::affine {
namespace {

double decode_16(std::uint16_t bits, Dtype d) {
  return d == Dtype::float16 ? test::naive_fp16(bits) : test::naive_bf16(bits);
}

// A 2 x 64 matrix (3-bit, group 32) built by hand, without quantize(): known q, scale and bias
// patterns written with the test's own bit writer.
QuantizedMatrix hand_matrix(Dtype dtype) {
  QuantizedMatrix m;
  m.params = {3, 32};
  m.scale_dtype = dtype;
  m.rows = 2;
  m.cols = 64;
  std::vector<std::uint32_t> words(2 * 6, 0u);
  for (std::size_t r = 0; r < 2; ++r) {
    std::vector<std::uint32_t> row(6, 0u);
    for (std::size_t k = 0; k < 64; ++k) test::naive_write(row, k, 3, (k * 5 + r * 3) % 8);
    std::copy(row.begin(), row.end(), words.begin() + static_cast<std::ptrdiff_t>(r * 6));
  }
  m.words = words;
  // Scales 0.25, -0.5, 1.5, -0.125 and biases -1, 2, 0.75, -3: exact in both 16-bit types.
  const std::vector<float> scales = {0.25f, -0.5f, 1.5f, -0.125f};
  const std::vector<float> biases = {-1.0f, 2.0f, 0.75f, -3.0f};
  for (std::size_t i = 0; i < 4; ++i) {
    m.scales.push_back(to_16bit_pattern(scales[i], dtype));
    m.biases.push_back(to_16bit_pattern(biases[i], dtype));
  }
  m.scales_f32 = scales;
  m.biases_f32 = biases;
  return m;
}

TEST(AffineReference, HandMatrixDot) {
  const QuantizedMatrix m = hand_matrix(Dtype::bfloat16);
  std::vector<float> x(64);
  for (std::size_t k = 0; k < 64; ++k) x[k] = static_cast<float>(k % 7) - 3.0f;
  const double scales[4] = {0.25, -0.5, 1.5, -0.125};
  const double biases[4] = {-1.0, 2.0, 0.75, -3.0};
  for (std::size_t n = 0; n < 2; ++n) {
    double expected = 0;
    for (std::size_t k = 0; k < 64; ++k) {
      const std::size_t g = n * 2 + k / 32;
      const double q = static_cast<double>((k * 5 + n * 3) % 8);
      expected += x[k] * (scales[g] * q + biases[g]);
    }
    // Integers and short dyadic fractions: every term and partial sum is exact.
    EXPECT_EQ(reference_dot(m, n, x.data()), expected) << n;
    for (std::size_t k = 0; k < 64; ++k) {
      const std::size_t g = n * 2 + k / 32;
      EXPECT_EQ(m.quant(n, k), (k * 5 + n * 3) % 8);
      EXPECT_EQ(dequantize_element(m, n, k), scales[g] * m.quant(n, k) + biases[g]);
    }
  }
}

TEST(AffineReference, RejectsMismatchedOperands) {
  const QuantizedMatrix m = hand_matrix(Dtype::float16);
  const std::vector<float> x(2 * 32, 1.0f);
  const auto narrow = ActivationView::f32(x, 2, 32);
  EXPECT_THROW((void)reference_dot(m, 0, narrow, 0), std::invalid_argument);
  const std::vector<float> ones(64, 1.0f);
  const auto view = ActivationView::f32(ones, 1, 64);
  EXPECT_THROW((void)reference_dot(m, 2, view, 0), std::out_of_range);
  EXPECT_THROW((void)reference_dot(m, 0, view, 1), std::out_of_range);
  EXPECT_THROW(ActivationView::f32(x, 3, 64), std::invalid_argument);
  const std::vector<std::uint16_t> bits(64, 0);
  EXPECT_THROW(ActivationView::bits16(bits, Dtype::float32, 1, 64), std::invalid_argument);
  std::vector<double> out(3);
  const std::size_t rows[] = {0};
  EXPECT_THROW(reference_rows(m, view, rows, out), std::invalid_argument);
}

struct RandomProblem {
  QuantizedMatrix w;
  Dtype x_dtype;
  std::size_t m_rows;
  std::vector<float> x_f32;          // used when x_dtype is f32
  std::vector<std::uint16_t> x_16;   // used otherwise
  ActivationView view() const {
    return x_dtype == Dtype::float32 ? ActivationView::f32(x_f32, m_rows, w.cols)
                                     : ActivationView::bits16(x_16, x_dtype, m_rows, w.cols);
  }
  double x(std::size_t m, std::size_t k) const {  // decoded independently of the library
    return x_dtype == Dtype::float32 ? x_f32[m * w.cols + k]
                                     : decode_16(x_16[m * w.cols + k], x_dtype);
  }
};

RandomProblem random_problem() {
  RandomProblem p;
  const AffineParams params{*rc::gen::elementOf(kSupportedBits),
                            *rc::gen::elementOf(kSupportedGroupSizes)};
  const Dtype scale_dtype = *rc::gen::element(Dtype::float16, Dtype::bfloat16);
  const std::size_t n = *rc::gen::inRange<std::size_t>(1, 6);
  const std::size_t k = static_cast<std::size_t>(params.group_size) *
                        *rc::gen::inRange<std::size_t>(1, 4);
  std::vector<float> w(n * k);
  for (float& v : w) v = static_cast<float>(*rc::gen::inRange(-100000, 100001)) / 25000.0f;
  p.w = quantize(w, n, k, params, scale_dtype);
  p.x_dtype = *rc::gen::element(Dtype::float32, Dtype::float16, Dtype::bfloat16);
  p.m_rows = *rc::gen::inRange<std::size_t>(1, 4);
  for (std::size_t i = 0; i < p.m_rows * k; ++i) {
    const float v = static_cast<float>(*rc::gen::inRange(-100000, 100001)) / 30000.0f;
    p.x_f32.push_back(v);
    p.x_16.push_back(p.x_dtype == Dtype::float16 ? float_to_fp16_bits(v) : float_to_bf16_bits(v));
  }
  return p;
}

// The reference against a separately written computation in a different order: per group,
// scale * sum(x*q) + bias * sum(x) (the factored form the Metal qdot uses), with q read by the
// naive bit-stream reader and scale/bias decoded from their definitions.
RC_GTEST_PROP(AffineReference, MatchesFactoredGroupSums, ()) {
  const RandomProblem p = random_problem();
  const QuantizedMatrix& w = p.w;
  const ActivationView view = p.view();
  std::vector<std::size_t> rows;
  for (std::size_t m = 0; m < p.m_rows; ++m) rows.push_back(m);
  std::vector<double> out(rows.size() * w.rows);
  reference_rows(w, view, rows, out);
  const std::size_t gs = static_cast<std::size_t>(w.params.group_size);
  for (std::size_t m = 0; m < p.m_rows; ++m) {
    for (std::size_t n = 0; n < w.rows; ++n) {
      const auto words = w.row_words(n);
      const std::vector<std::uint32_t> row(words.begin(), words.end());
      double expected = 0;
      double magnitude = 0;
      for (std::size_t g = 0; g < w.groups_per_row(); ++g) {
        const double s = decode_16(w.scales[n * w.groups_per_row() + g], w.scale_dtype);
        const double b = decode_16(w.biases[n * w.groups_per_row() + g], w.scale_dtype);
        double xq = 0, xs = 0;
        for (std::size_t k = g * gs; k < (g + 1) * gs; ++k) {
          const double q = test::naive_read(row, k, w.params.bits);
          xq += p.x(m, k) * q;
          xs += p.x(m, k);
          magnitude += std::fabs(p.x(m, k) * (s * q + b));
        }
        expected += s * xq + b * xs;
      }
      // Both sums are float64 over a few hundred terms of size <= ~1e3: 1e-12 relative to the
      // magnitude sum covers reordering and the cancellation of b*sum(x).
      const double got = out[m * w.rows + n];
      RC_ASSERT(std::fabs(got - expected) <= 1e-12 * (magnitude + 1));
      RC_ASSERT(got == reference_dot(w, n, view, m));
      RC_ASSERT(std::fabs(reference_abs_dot(w, n, view, m) - magnitude) <= 1e-12 * (magnitude + 1));
    }
  }
}

// The column-subset overload picks exactly the same values as the full one.
RC_GTEST_PROP(AffineReference, ColumnSubsetMatchesFullRows, ()) {
  const RandomProblem p = random_problem();
  const ActivationView view = p.view();
  const std::vector<std::size_t> m_rows = {p.m_rows - 1, 0};
  std::vector<double> full(m_rows.size() * p.w.rows);
  reference_rows(p.w, view, m_rows, full);
  const std::vector<std::size_t> n_cols = {p.w.rows - 1, 0, p.w.rows / 2};
  std::vector<double> subset(m_rows.size() * n_cols.size());
  reference_rows(p.w, view, m_rows, n_cols, subset);
  for (std::size_t i = 0; i < m_rows.size(); ++i) {
    for (std::size_t j = 0; j < n_cols.size(); ++j) {
      RC_ASSERT(subset[i * n_cols.size() + j] == full[i * p.w.rows + n_cols[j]]);
    }
  }
}

// 16-bit activations give the same result as floats holding the same values.
RC_GTEST_PROP(AffineReference, SixteenBitActivationsMatchTheirFloatValues, ()) {
  RandomProblem p = random_problem();
  RC_PRE(p.x_dtype != Dtype::float32);
  std::vector<float> as_float;
  for (std::uint16_t b : p.x_16) as_float.push_back(static_cast<float>(decode_16(b, p.x_dtype)));
  const auto f32 = ActivationView::f32(as_float, p.m_rows, p.w.cols);
  const ActivationView bits = p.view();
  for (std::size_t m = 0; m < p.m_rows; ++m) {
    for (std::size_t n = 0; n < p.w.rows; ++n) {
      RC_ASSERT(reference_dot(p.w, n, bits, m) == reference_dot(p.w, n, f32, m));
      RC_ASSERT(reference_dot(p.w, n, bits, m) ==
                reference_dot(p.w, n, as_float.data() + m * p.w.cols));
    }
  }
}

// Float dequantization is the correctly rounded float of the exact value s*q + b (what an fma
// gives): for f16 scales the double value is exact, so the float must equal its rounding.
RC_GTEST_PROP(AffineDequantize, FloatIsCorrectlyRounded, ()) {
  const RandomProblem p = random_problem();
  const std::vector<float> all = dequantize(p.w);
  std::vector<float> row(p.w.cols);
  for (std::size_t n = 0; n < p.w.rows; ++n) {
    dequantize_row(p.w, n, row);
    for (std::size_t k = 0; k < p.w.cols; ++k) {
      const std::size_t slot =
          n * p.w.groups_per_row() + k / static_cast<std::size_t>(p.w.params.group_size);
      const double s = decode_16(p.w.scales[slot], p.w.scale_dtype);
      const double b = decode_16(p.w.biases[slot], p.w.scale_dtype);
      const double exact = s * p.w.quant(n, k) + b;
      RC_ASSERT(row[k] == all[n * p.w.cols + k]);
      if (p.w.scale_dtype == Dtype::float16) {
        RC_ASSERT(dequantize_element(p.w, n, k) == exact);
        RC_ASSERT(row[k] == static_cast<float>(exact));
      } else {
        // bf16 exponents can be far apart, so `exact` may itself be rounded: half a float ulp.
        RC_ASSERT(std::fabs(row[k] - exact) <= std::fabs(exact) * 0x1p-24 + 0x1p-149);
      }
    }
  }
}

TEST(AffineDequantize, RowChecksItsArguments) {
  const QuantizedMatrix m = hand_matrix(Dtype::float16);
  std::vector<float> short_row(63);
  EXPECT_THROW(dequantize_row(m, 0, short_row), std::invalid_argument);
  std::vector<float> row(64);
  EXPECT_THROW(dequantize_row(m, 2, row), std::out_of_range);
  EXPECT_THROW((void)m.quant(0, 64), std::out_of_range);
}

}  // namespace
}  // namespace gridfuzz::formats::affine
