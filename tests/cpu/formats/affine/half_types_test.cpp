#include "gridfuzz/formats/affine/half_types.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "gridfuzz/formats/affine/dtype.hpp"
#include "test_support.hpp"

namespace gridfuzz::formats::affine {
namespace {

float f_from_bits(std::uint32_t u) { return bits_to_float(u); }

TEST(Bf16, KnownPatterns) {
  EXPECT_EQ(float_to_bf16_bits(1.0f), 0x3F80);
  EXPECT_EQ(float_to_bf16_bits(-2.5f), 0xC020);
  EXPECT_EQ(float_to_bf16_bits(0.0f), 0x0000);
  EXPECT_EQ(float_to_bf16_bits(-0.0f), 0x8000);
  EXPECT_EQ(bf16_bits_to_float(0x3F80), 1.0f);
  EXPECT_EQ(bf16_bits_to_float(0xC020), -2.5f);
  // Smallest subnormal: 2^-133, float bits 0x00010000.
  EXPECT_EQ(bf16_bits_to_float(0x0001), std::ldexp(1.0f, -133));
  EXPECT_EQ(float_to_bf16_bits(std::ldexp(1.0f, -133)), 0x0001);
  EXPECT_EQ(float_to_bf16_bits(std::numeric_limits<float>::infinity()), 0x7F80);
  EXPECT_EQ(float_to_bf16_bits(-std::numeric_limits<float>::infinity()), 0xFF80);
}

TEST(Bf16, RoundsToNearestTiesToEven) {
  // 1 + 2^-8 is halfway between 0x3F80 (even) and 0x3F81.
  EXPECT_EQ(float_to_bf16_bits(f_from_bits(0x3F808000)), 0x3F80);
  // Just above halfway goes up.
  EXPECT_EQ(float_to_bf16_bits(f_from_bits(0x3F808001)), 0x3F81);
  // Just below halfway goes down.
  EXPECT_EQ(float_to_bf16_bits(f_from_bits(0x3F807FFF)), 0x3F80);
  // Halfway between 0x3F81 (odd) and 0x3F82 (even) goes up to the even one.
  EXPECT_EQ(float_to_bf16_bits(f_from_bits(0x3F818000)), 0x3F82);
  // Negative ties are symmetric.
  EXPECT_EQ(float_to_bf16_bits(f_from_bits(0xBF818000)), 0xBF82);
  // Halfway between the largest finite 0x7F7F (odd) and infinity: goes to infinity.
  EXPECT_EQ(float_to_bf16_bits(f_from_bits(0x7F7F8000)), 0x7F80);
  EXPECT_EQ(float_to_bf16_bits(f_from_bits(0x7F7F7FFF)), 0x7F7F);
  // Subnormal tie: 0.5 * 2^-133 between 0 (even) and 0x0001.
  EXPECT_EQ(float_to_bf16_bits(f_from_bits(0x00008000)), 0x0000);
  EXPECT_EQ(float_to_bf16_bits(f_from_bits(0x00018000)), 0x0002);
}

TEST(Bf16, NanStaysNan) {
  // A signalling NaN whose payload sits only in the low 16 bits must not become infinity.
  EXPECT_TRUE(std::isnan(bf16_bits_to_float(float_to_bf16_bits(f_from_bits(0x7F800001)))));
  EXPECT_TRUE(std::isnan(bf16_bits_to_float(float_to_bf16_bits(f_from_bits(0xFFC00000)))));
  EXPECT_EQ(float_to_bf16_bits(f_from_bits(0xFFC00000)) & 0x8000, 0x8000);
}

TEST(Fp16, KnownPatterns) {
  EXPECT_EQ(float_to_fp16_bits(1.0f), 0x3C00);
  EXPECT_EQ(float_to_fp16_bits(-2.5f), 0xC100);
  EXPECT_EQ(float_to_fp16_bits(-0.0f), 0x8000);
  EXPECT_EQ(float_to_fp16_bits(65504.0f), 0x7BFF);
  EXPECT_EQ(float_to_fp16_bits(std::ldexp(1.0f, -14)), 0x0400);  // smallest normal
  EXPECT_EQ(fp16_bits_to_float(0x3C00), 1.0f);
  EXPECT_EQ(fp16_bits_to_float(0xC100), -2.5f);
  EXPECT_EQ(fp16_bits_to_float(0x7BFF), 65504.0f);
  // Smallest subnormal 2^-24 and largest subnormal 1023 * 2^-24.
  EXPECT_EQ(fp16_bits_to_float(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(float_to_fp16_bits(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(fp16_bits_to_float(0x03FF), std::ldexp(1023.0f, -24));
  EXPECT_EQ(fp16_bits_to_float(0x8001), -std::ldexp(1.0f, -24));
  EXPECT_EQ(float_to_fp16_bits(std::numeric_limits<float>::infinity()), 0x7C00);
  EXPECT_EQ(fp16_bits_to_float(0xFC00), -std::numeric_limits<float>::infinity());
  EXPECT_EQ(float_to_fp16_bits(1e-8f), 0x0000);  // below 2^-26
  EXPECT_EQ(float_to_fp16_bits(-1e-8f), 0x8000);
}

TEST(Fp16, RoundsToNearestTiesToEven) {
  // 1 + 2^-11: halfway between 0x3C00 (even) and 0x3C01.
  EXPECT_EQ(float_to_fp16_bits(1.0f + std::ldexp(1.0f, -11)), 0x3C00);
  // 1 + 3 * 2^-11: halfway between 0x3C01 and 0x3C02 (even).
  EXPECT_EQ(float_to_fp16_bits(1.0f + std::ldexp(3.0f, -11)), 0x3C02);
  EXPECT_EQ(float_to_fp16_bits(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)), 0x3C01);
  // 2^-25 is halfway between 0 and the smallest subnormal: goes to 0.
  EXPECT_EQ(float_to_fp16_bits(std::ldexp(1.0f, -25)), 0x0000);
  EXPECT_EQ(float_to_fp16_bits(std::ldexp(3.0f, -26)), 0x0001);  // 0.75 units: up
  EXPECT_EQ(float_to_fp16_bits(std::ldexp(3.0f, -25)), 0x0002);  // 1.5 units: to even 2
  EXPECT_EQ(float_to_fp16_bits(std::ldexp(5.0f, -25)), 0x0002);  // 2.5 units: to even 2
  // 1023.5 units: halfway between the largest subnormal and the smallest normal (even).
  EXPECT_EQ(float_to_fp16_bits(std::ldexp(2047.0f, -25)), 0x0400);
  // 65520 = 65504 + half an ulp: the even neighbour is 65536, i.e. infinity.
  EXPECT_EQ(float_to_fp16_bits(65520.0f), 0x7C00);
  EXPECT_EQ(float_to_fp16_bits(65519.996f), 0x7BFF);
  EXPECT_EQ(float_to_fp16_bits(-65520.0f), 0xFC00);
}

TEST(Fp16, NanStaysNan) {
  EXPECT_TRUE(std::isnan(fp16_bits_to_float(float_to_fp16_bits(f_from_bits(0x7F800001)))));
  EXPECT_TRUE(std::isnan(fp16_bits_to_float(0x7E00)));
  EXPECT_TRUE(std::isnan(fp16_bits_to_float(0xFC01)));
}

// Every finite 16-bit pattern decodes to the value its definition gives and encodes back to
// itself; NaN patterns decode to NaN.
TEST(HalfTypes, ExhaustiveDecodeAndRoundTrip) {
  for (std::uint32_t i = 0; i < 0x10000; ++i) {
    const auto h = static_cast<std::uint16_t>(i);
    const bool fp16_finite = ((h >> 10) & 0x1f) != 0x1f;
    if (fp16_finite) {
      ASSERT_EQ(static_cast<double>(fp16_bits_to_float(h)), test::naive_fp16(h)) << std::hex << i;
      ASSERT_EQ(float_to_fp16_bits(fp16_bits_to_float(h)), h) << std::hex << i;
    } else if ((h & 0x3ff) != 0) {
      ASSERT_TRUE(std::isnan(fp16_bits_to_float(h))) << std::hex << i;
    }
    const bool bf16_finite = ((h >> 7) & 0xff) != 0xff;
    if (bf16_finite) {
      ASSERT_EQ(static_cast<double>(bf16_bits_to_float(h)), test::naive_bf16(h)) << std::hex << i;
      ASSERT_EQ(float_to_bf16_bits(bf16_bits_to_float(h)), h) << std::hex << i;
    } else if ((h & 0x7f) != 0) {
      ASSERT_TRUE(std::isnan(bf16_bits_to_float(h))) << std::hex << i;
    }
  }
}

// Every exact midpoint between two adjacent finite 16-bit values rounds to the even one, and the
// floats just beside it round to the nearer one. Midpoints need one more significant bit than the
// 16-bit types have, so they are exact floats.
template <typename Encode>
void check_all_midpoints(double (*decode)(std::uint16_t), Encode encode,
                         std::uint16_t largest_finite) {
  for (std::uint32_t mag = 0; mag < largest_finite; ++mag) {
    for (std::uint16_t sign : {std::uint16_t{0}, std::uint16_t{0x8000}}) {
      const auto lo = static_cast<std::uint16_t>(sign | mag);
      const auto hi = static_cast<std::uint16_t>(sign | (mag + 1));
      const double mid_exact = (decode(lo) + decode(hi)) / 2;
      const auto mid = static_cast<float>(mid_exact);
      ASSERT_EQ(static_cast<double>(mid), mid_exact) << std::hex << mag;
      const std::uint16_t even = (mag & 1) ? hi : lo;
      ASSERT_EQ(encode(mid), even) << std::hex << mag;
      const float toward_lo = std::nextafter(mid, static_cast<float>(decode(lo)));
      const float toward_hi = std::nextafter(mid, static_cast<float>(decode(hi)));
      ASSERT_EQ(encode(toward_lo), lo) << std::hex << mag;
      ASSERT_EQ(encode(toward_hi), hi) << std::hex << mag;
    }
  }
}

TEST(HalfTypes, ExhaustiveMidpointsTieToEven) {
  check_all_midpoints(test::naive_fp16, float_to_fp16_bits, 0x7BFF);
  check_all_midpoints(test::naive_bf16, float_to_bf16_bits, 0x7F7F);
}

// Round-to-nearest-even, stated without reference to any implementation: the result is at least
// as close to f as both neighbouring representable values, and on a tie its last bit is 0.
void check_nearest_even(float f, std::uint16_t r, double (*decode)(std::uint16_t),
                        std::uint16_t inf_magnitude) {
  const auto mag = static_cast<std::uint16_t>(r & 0x7fff);
  RC_ASSERT(((r & 0x8000) != 0) == std::signbit(f));
  const double ax = std::fabs(static_cast<double>(f));
  const auto below = [&](std::uint16_t m) { return decode(static_cast<std::uint16_t>(m - 1)); };
  if (mag == inf_magnitude) {
    // Infinity only from the halfway point past the largest finite value onwards.
    const double largest = below(inf_magnitude);
    const double next = largest + (largest - below(static_cast<std::uint16_t>(inf_magnitude - 1)));
    RC_ASSERT(ax >= (largest + next) / 2);
    return;
  }
  const double value = decode(mag);
  const double err = std::fabs(ax - value);
  const double up = (mag + 1 == inf_magnitude) ? value + (value - below(mag))
                                               : decode(static_cast<std::uint16_t>(mag + 1));
  RC_ASSERT(err <= std::fabs(ax - up));
  if (err == std::fabs(ax - up)) RC_ASSERT((mag & 1) == 0);
  if (mag > 0) {
    const double down_err = std::fabs(ax - below(mag));
    RC_ASSERT(err <= down_err);
    if (err == down_err) RC_ASSERT((mag & 1) == 0);
  }
}

RC_GTEST_PROP(HalfTypes, Fp16RoundsToNearestEven, (std::uint32_t u)) {
  const float f = f_from_bits(u);
  RC_PRE(!std::isnan(f) && !std::isinf(f));
  check_nearest_even(f, float_to_fp16_bits(f), test::naive_fp16, 0x7C00);
}

// Floats near the fp16 range, where subnormals, normals and overflow all occur.
RC_GTEST_PROP(HalfTypes, Fp16RoundsToNearestEvenInRange, ()) {
  const int exponent = *rc::gen::inRange(-27, 17);
  const auto mantissa = *rc::gen::inRange<std::uint32_t>(0, 1u << 23);
  const bool negative = *rc::gen::arbitrary<bool>();
  float f = std::ldexp(1.0f + static_cast<float>(mantissa) * 0x1p-23f, exponent);
  if (negative) f = -f;
  check_nearest_even(f, float_to_fp16_bits(f), test::naive_fp16, 0x7C00);
}

RC_GTEST_PROP(HalfTypes, Bf16RoundsToNearestEven, (std::uint32_t u)) {
  const float f = f_from_bits(u);
  RC_PRE(!std::isnan(f) && !std::isinf(f));
  check_nearest_even(f, float_to_bf16_bits(f), test::naive_bf16, 0x7F80);
}

#if defined(__FLT16_MANT_DIG__)
// The compiler's own _Float16 conversion is a second, independent oracle where it exists.
RC_GTEST_PROP(HalfTypes, Fp16MatchesCompilerFloat16, (std::uint32_t u)) {
  const float f = f_from_bits(u);
  RC_PRE(!std::isnan(f));
  const _Float16 h = static_cast<_Float16>(f);
  std::uint16_t bits;
  static_assert(sizeof h == sizeof bits);
  std::memcpy(&bits, &h, sizeof bits);
  RC_ASSERT(float_to_fp16_bits(f) == bits);
}
#endif

TEST(Dtype, NamesAndPatterns) {
  EXPECT_EQ(to_string(Dtype::bfloat16), "bf16");
  EXPECT_EQ(parse_dtype("f16"), Dtype::float16);
  EXPECT_EQ(parse_dtype("fp8"), std::nullopt);
  EXPECT_EQ(dtype_bytes(Dtype::float32), 4u);
  EXPECT_EQ(to_16bit_pattern(-2.5f, Dtype::float16), 0xC100);
  EXPECT_EQ(to_16bit_pattern(-2.5f, Dtype::bfloat16), 0xC020);
  EXPECT_THROW(to_16bit_pattern(1.0f, Dtype::float32), std::invalid_argument);
  // 1 + 2^-9 survives f16 (10 mantissa bits) but not bf16 (7 bits).
  EXPECT_EQ(round_to_dtype(1.0f + 0x1p-9f, Dtype::float16), 1.0f + 0x1p-9f);
  EXPECT_EQ(round_to_dtype(1.0f + 0x1p-9f, Dtype::bfloat16), 1.0f);
  EXPECT_EQ(round_to_dtype(1.0f + 0x1p-9f, Dtype::float32), 1.0f + 0x1p-9f);
}

// Scales and biases are stored as 16-bit patterns: only f16 and bf16 hold them, and a pattern
// reads back as the value it was made from when that value is exact in the type.
TEST(Dtype, SixteenBitPatternsReadBack) {
  EXPECT_TRUE(is_16bit(Dtype::float16));
  EXPECT_TRUE(is_16bit(Dtype::bfloat16));
  EXPECT_FALSE(is_16bit(Dtype::float32));
  for (const Dtype d : {Dtype::float16, Dtype::bfloat16}) {
    for (const float v : {-2.5f, 0.0f, 1.0f, 0.375f, 96.0f}) {
      EXPECT_EQ(from_16bit_pattern(to_16bit_pattern(v, d), d), v) << to_string(d) << " " << v;
    }
  }
  EXPECT_EQ(from_16bit_pattern(0x3C00, Dtype::float16), 1.0f);
  EXPECT_EQ(from_16bit_pattern(0x3F80, Dtype::bfloat16), 1.0f);
  EXPECT_THROW((void)from_16bit_pattern(0x3C00, Dtype::float32), std::invalid_argument);
}

}  // namespace
}  // namespace gridfuzz::formats::affine
