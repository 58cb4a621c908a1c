// Quantizers: the stated per-type error bound on random rows, exactness where the input is
// representable, determinism, and input checks.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <vector>

#include "gguf_test_data.hpp"
#include "gridfuzz/formats/gguf/blocks.hpp"
#include "gridfuzz/formats/gguf/dequantize.hpp"
#include "gridfuzz/formats/gguf/quant_type_names.hpp"
#include "gridfuzz/formats/gguf/quantize.hpp"

namespace gridfuzz::formats::gguf {
namespace {

std::vector<std::uint8_t> quantized(QuantType t, const std::vector<float>& x) {
  std::vector<std::uint8_t> bytes(quant_row_bytes(t, x.size()));
  quantize_row(t, x.data(), bytes.data(), x.size());
  return bytes;
}

std::vector<double> round_trip(QuantType t, const std::vector<float>& x) {
  const auto bytes = quantized(t, x);
  std::vector<double> y(x.size());
  dequantize_row(t, bytes.data(), y.data(), y.size());
  return y;
}

RC_GTEST_PROP(Quantize, EveryTypeStaysWithinItsErrorBound, ()) {
  const auto blocks = *rc::gen::inRange<std::size_t>(1, 3);
  const auto x = *testing::gen_row(256 * blocks);
  for (QuantType t : all_quant_types()) {
    const std::size_t qk = quant_traits(t).qk;
    const auto y = round_trip(t, x);
    for (std::size_t b = 0; b < x.size() / qk; ++b) {
      const double bound = quantization_error_bound(t, testing::amax_of(x.data() + b * qk, qk));
      for (std::size_t j = b * qk; j < (b + 1) * qk; ++j) {
        const double err = std::fabs(y[j] - static_cast<double>(x[j]));
        if (!(err <= bound)) {
          std::ostringstream msg;
          msg << to_string(t) << " element " << j << ": x " << x[j] << " -> " << y[j] << ", error " << err
              << " > bound " << bound;
          RC_FAIL(msg.str());
        }
      }
    }
  }
}

RC_GTEST_PROP(Quantize, IsDeterministic, ()) {
  const auto x = *testing::gen_row(256);
  for (QuantType t : all_quant_types()) RC_ASSERT(quantized(t, x) == quantized(t, x));
}

// Tiny inputs: half-subnormal scales; the bound's absolute floor must cover them.
RC_GTEST_PROP(Quantize, TinyInputsStayWithinTheFloor, ()) {
  const auto u = *rc::gen::container<std::vector<int>>(256, rc::gen::inRange(-1000, 1001));
  const float scale = std::ldexp(1.0f, *rc::gen::inRange(-30, -12));
  std::vector<float> x(256);
  for (int i = 0; i < 256; ++i) x[i] = scale * static_cast<float>(u[i]) / 1000.0f;
  for (QuantType t : all_quant_types()) {
    const std::size_t qk = quant_traits(t).qk;
    const auto y = round_trip(t, x);
    for (std::size_t j = 0; j < x.size(); ++j) {
      const double bound = quantization_error_bound(t, testing::amax_of(x.data() + j / qk * qk, qk));
      RC_ASSERT(std::fabs(y[j] - x[j]) <= bound);
    }
  }
}

TEST(Quantize, ZerosStayExactlyZero) {
  const std::vector<float> x(512, 0.0f);
  for (QuantType t : all_quant_types()) {
    for (double v : round_trip(t, x)) ASSERT_EQ(v, 0.0) << to_string(t);
  }
}

TEST(Quantize, RepresentableInputsRoundTripExactly) {
  // q4_0: (q - 8) * 0.5 with q = 0 present, so the extreme -4 sets d = -4 / -8 = 0.5 exactly.
  std::vector<float> q4(32);
  for (int j = 0; j < 32; ++j) q4[j] = static_cast<float>((j % 16) - 8) * 0.5f;
  EXPECT_EQ(round_trip(QuantType::q4_0, q4), std::vector<double>(q4.begin(), q4.end()));
  // q8_0: k / 128 with k spanning [-127, 127]: d = (127/128) / 127 = 2^-7 exactly.
  std::vector<float> q8(32);
  for (int j = 0; j < 32; ++j) q8[j] = static_cast<float>(j * 8 - 127) / 128.0f;
  q8[31] = 127.0f / 128.0f;
  EXPECT_EQ(round_trip(QuantType::q8_0, q8), std::vector<double>(q8.begin(), q8.end()));
  // q4_1: min -1, max 2.75 -> d = 3.75 / 15 = 0.25, m = -1: every -1 + k/4 is a grid point.
  std::vector<float> q41(32);
  for (int j = 0; j < 32; ++j) q41[j] = -1.0f + 0.25f * static_cast<float>(j % 16);
  EXPECT_EQ(round_trip(QuantType::q4_1, q41), std::vector<double>(q41.begin(), q41.end()));
  // iq4_nl: the table itself times 0.5 (extreme -127 -> d = 0.5).
  std::vector<float> nl(32);
  for (int j = 0; j < 32; ++j) nl[j] = 0.5f * static_cast<float>(iq4nl_value(static_cast<unsigned>(j % 16)));
  EXPECT_EQ(round_trip(QuantType::iq4_nl, nl), std::vector<double>(nl.begin(), nl.end()));
}

TEST(Quantize, RepresentableTwoLevelInputsRoundTripExactly) {
  // Inputs built as (super-scale) * (sub-scale) * (quant) where each sub-block contains its grid
  // end, so the quantizer's scale choices must recover exactly these scales and quants.
  const double d = 0.25;
  // iq4_xs: group g is d * l_g * table[j]; table[0] = -127 is each group's extreme and l = -32 the
  // largest sub-scale, so the super-scale is d and every l_g comes back.
  const int l_xs[8] = {-32, 5, -7, 31, 1, -1, 16, 0};
  std::vector<float> xs(256);
  for (int e = 0; e < 256; ++e) xs[e] = static_cast<float>(d * l_xs[e / 32] * iq4nl_value(static_cast<unsigned>(e % 16)));
  EXPECT_EQ(round_trip(QuantType::iq4_xs, xs), std::vector<double>(xs.begin(), xs.end()));
  // q6_K: sub-block i is d * sc_i * q with q cycling over [-32, 31] (q = -32 is the extreme).
  const int sc6[16] = {-128, 7, -3, 127, 1, 0, -1, 64, 5, -90, 2, 11, -17, 33, 100, -50};
  std::vector<float> x6(256);
  for (int e = 0; e < 256; ++e) x6[e] = static_cast<float>(d * sc6[e / 16] * ((e * 5) % 64 - 32));
  for (int i = 0; i < 16; ++i) x6[16 * i] = static_cast<float>(d * sc6[i] * -32);  // make sure -32 is present
  EXPECT_EQ(round_trip(QuantType::q6_K, x6), std::vector<double>(x6.begin(), x6.end()));
  // q3_K: d * sc_i * q, q in [-4, 3], scales in [-32, 31] with -32 present.
  const int sc3[16] = {-32, 31, 1, -1, 0, 9, -9, 20, 3, -17, 12, 2, -5, 30, 7, -2};
  std::vector<float> x3(256);
  for (int e = 0; e < 256; ++e) x3[e] = static_cast<float>(d * sc3[e / 16] * ((e % 16 == 0) ? -4 : (e * 3) % 8 - 4));
  EXPECT_EQ(round_trip(QuantType::q3_K, x3), std::vector<double>(x3.begin(), x3.end()));
  // q4_K: d * sc_i * q - dmin * m_i with q over [0, 15] (both ends present); the largest scale and
  // the largest min are 63 so the super-scales come back as d and dmin.
  const double dmin = 0.125;
  const int sc4[8] = {63, 10, 1, 0, 40, 7, 22, 5};
  const int m4[8] = {0, 63, 5, 17, 1, 0, 30, 2};
  std::vector<float> x4(256);
  for (int e = 0; e < 256; ++e) {
    const int q = e % 32 == 0 ? 0 : (e % 32 == 1 ? 15 : (e * 7) % 16);
    x4[e] = static_cast<float>(d * sc4[e / 32] * q - dmin * m4[e / 32]);
  }
  EXPECT_EQ(round_trip(QuantType::q4_K, x4), std::vector<double>(x4.begin(), x4.end()));
}

TEST(Quantize, WorstCaseOfTheSymmetricGridReachesTheBound) {
  // q4_0 with extreme -8: d = 1, and +8 must land on the grid end 7: error exactly 1 = amax/8.
  std::vector<float> x(32, 0.0f);
  x[0] = -8.0f;
  x[1] = 8.0f;
  const auto y = round_trip(QuantType::q4_0, x);
  EXPECT_EQ(y[0], -8.0);
  EXPECT_EQ(y[1], 7.0);
  EXPECT_LE(1.0, quantization_error_bound(QuantType::q4_0, 8.0));
  EXPECT_GT(1.0, quantization_error_coefficient(QuantType::q4_0) * 8.0 * 0.99);
}

TEST(Quantize, KQuantScalesUseTheirRange) {
  // One sub-block per super-block with the largest spread sets d: its 6-bit scale must be 63.
  std::vector<float> x(256);
  for (int e = 0; e < 256; ++e) x[e] = static_cast<float>((e % 32) - 16) * (e < 32 ? 1.0f : 0.1f);
  const auto bytes = quantized(QuantType::q4_K, x);
  block_q4_K b;
  std::memcpy(&b, bytes.data(), sizeof b);
  EXPECT_EQ(b.scales[0] & 63, 63);  // sub 0 scale
  EXPECT_EQ(b.scales[4] & 63, 63);  // sub 0 min (also the largest, 16)
}

TEST(Quantize, RejectsBadInput) {
  std::vector<float> x(64, 1.0f);
  std::vector<std::uint8_t> out(1024);
  EXPECT_THROW(quantize_row(QuantType::q4_K, x.data(), out.data(), 64), std::invalid_argument);
  x[3] = NAN;
  EXPECT_THROW(quantize_row(QuantType::q4_0, x.data(), out.data(), 64), std::invalid_argument);
  x[3] = 70000.0f;
  EXPECT_THROW(quantize_row(QuantType::q8_0, x.data(), out.data(), 64), std::invalid_argument);
  x[3] = INFINITY;
  EXPECT_THROW(quantize_row(QuantType::iq4_nl, x.data(), out.data(), 64), std::invalid_argument);
}

TEST(Quantize, BoundsAreOrderedByBitsPerWeight) {
  // A sanity check of the stated coefficients: more bits, smaller bound.
  auto c = [](QuantType t) { return quantization_error_coefficient(t); };
  EXPECT_LT(c(QuantType::q8_0), c(QuantType::q6_K));
  EXPECT_LT(c(QuantType::q6_K), c(QuantType::q5_K));
  EXPECT_LT(c(QuantType::q5_K), c(QuantType::q4_K));
  EXPECT_LT(c(QuantType::q4_K), c(QuantType::q3_K));
  EXPECT_LT(c(QuantType::q3_K), c(QuantType::q2_K));
  EXPECT_LT(c(QuantType::q5_1), c(QuantType::q4_1));
  EXPECT_LT(c(QuantType::q5_0), c(QuantType::q4_0));
}

}  // namespace
}  // namespace gridfuzz::formats::gguf
