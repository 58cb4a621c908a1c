// fp16 conversions: known bit patterns, all 65536 halves round-trip, and float -> half agrees
// with the compiler's own _Float16 conversion (an independent implementation) on random floats.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>

#include "gridfuzz/formats/gguf/fp16.hpp"

namespace gridfuzz::formats::gguf {
namespace {

TEST(Fp16, KnownValues) {
  EXPECT_EQ(float_to_half_bits(1.0f), 0x3C00);
  EXPECT_EQ(float_to_half_bits(-2.0f), 0xC000);
  EXPECT_EQ(float_to_half_bits(0.1f), 0x2E66);       // 0.0999755859375 is nearest
  EXPECT_EQ(float_to_half_bits(65504.0f), 0x7BFF);   // largest finite half
  EXPECT_EQ(float_to_half_bits(65519.99f), 0x7BFF);  // below the halfway point to 65536
  EXPECT_EQ(float_to_half_bits(65520.0f), 0x7C00);   // halfway, odd mantissa: rounds up to inf
  EXPECT_EQ(float_to_half_bits(0x1p-24f), 0x0001);   // smallest subnormal
  EXPECT_EQ(float_to_half_bits(0x1p-25f), 0x0000);   // exactly half of it: tie to even (0)
  EXPECT_EQ(float_to_half_bits(0x1.8p-24f), 0x0002); // 1.5 units: tie to even (2)
  EXPECT_EQ(float_to_half_bits(0x1.000002p-25f), 0x0001);  // just above the tie
  EXPECT_EQ(float_to_half_bits(0x1.ffcp-15f), 0x0400);     // 1023.5 units: tie -> 1024 = min normal
  EXPECT_EQ(float_to_half_bits(1.0f + 0x1p-11f), 0x3C00);  // tie between 1 and 1+2^-10: even
  EXPECT_EQ(float_to_half_bits(1.0f + 0x1.8p-10f), 0x3C02); // 1.5 ulps: tie to even (2)
  EXPECT_EQ(float_to_half_bits(-0.0f), 0x8000);
  EXPECT_EQ(float_to_half_bits(INFINITY), 0x7C00);
  EXPECT_EQ(float_to_half_bits(-INFINITY), 0xFC00);
  const std::uint16_t nan = float_to_half_bits(NAN);
  EXPECT_EQ(nan & 0x7C00, 0x7C00);
  EXPECT_NE(nan & 0x03FF, 0);

  EXPECT_EQ(half_bits_to_float(0x3C00), 1.0f);
  EXPECT_EQ(half_bits_to_float(0x3555), 0x1.554p-2f);
  EXPECT_EQ(half_bits_to_float(0x0001), 0x1p-24f);
  EXPECT_EQ(half_bits_to_float(0x03FF), 0x1.ff8p-15f);
  EXPECT_EQ(half_bits_to_float(0xFBFF), -65504.0f);
  EXPECT_TRUE(std::isinf(half_bits_to_float(0x7C00)));
  EXPECT_TRUE(std::isnan(half_bits_to_float(0x7E00)));
}

TEST(Fp16, EveryHalfRoundTripsAndMatchesFloat16) {
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    const auto bits = static_cast<std::uint16_t>(h);
    const float f = half_bits_to_float(bits);
    const float independent = static_cast<float>(std::bit_cast<_Float16>(bits));
    if (std::isnan(independent)) {
      EXPECT_TRUE(std::isnan(f)) << std::hex << h;
      continue;
    }
    ASSERT_EQ(std::bit_cast<std::uint32_t>(f), std::bit_cast<std::uint32_t>(independent)) << std::hex << h;
    ASSERT_EQ(float_to_half_bits(f), bits) << std::hex << h;
  }
}

RC_GTEST_PROP(Fp16, FloatToHalfMatchesFloat16, (std::uint32_t float_bits)) {
  const float f = std::bit_cast<float>(float_bits);
  RC_PRE(!std::isnan(f));
  RC_ASSERT(float_to_half_bits(f) == std::bit_cast<std::uint16_t>(static_cast<_Float16>(f)));
}

// Floats near the half range where the rounding cases live (arbitrary 32-bit patterns mostly
// land outside it).
RC_GTEST_PROP(Fp16, FloatToHalfMatchesFloat16InHalfRange, ()) {
  const auto exponent = *rc::gen::inRange(-27, 17);
  const auto mantissa = *rc::gen::inRange<std::uint32_t>(0, 1u << 23);
  const bool negative = *rc::gen::arbitrary<bool>();
  const float f = std::ldexp(1.0f + static_cast<float>(mantissa) * 0x1p-23f, exponent) * (negative ? -1.0f : 1.0f);
  RC_ASSERT(float_to_half_bits(f) == std::bit_cast<std::uint16_t>(static_cast<_Float16>(f)));
}

// Floats at and next to the rounding ties (dropped bits exactly half an ulp), where the
// ties-to-even rule decides; random floats almost never land there.
RC_GTEST_PROP(Fp16, FloatToHalfMatchesFloat16AtTies, ()) {
  const auto exponent = *rc::gen::inRange(-25, 16);
  const auto kept = *rc::gen::inRange<std::uint32_t>(0, 1u << 10);
  const auto nudge = *rc::gen::inRange(-1, 2);
  // For normal results the tie is dropped bits 0x1000 of the float mantissa; subnormal results
  // drop more bits, so also try the tie for those positions.
  const auto dropped_bits = *rc::gen::inRange(13, 24);
  const std::uint32_t mantissa = ((kept << 13) & 0x7fffffu & ~((1u << dropped_bits) - 1)) | (1u << (dropped_bits - 1));
  const std::uint32_t biased = static_cast<std::uint32_t>(exponent + 127);
  const std::uint32_t bits = (biased << 23 | mantissa) + static_cast<std::uint32_t>(nudge);
  const float f = std::bit_cast<float>(bits);
  RC_ASSERT(float_to_half_bits(f) == std::bit_cast<std::uint16_t>(static_cast<_Float16>(f)));
  RC_ASSERT(float_to_half_bits(-f) == std::bit_cast<std::uint16_t>(static_cast<_Float16>(-f)));
}

RC_GTEST_PROP(Fp16, AwayFromZeroIsNearestNotSmaller, ()) {
  const auto exponent = *rc::gen::inRange(-26, 15);
  const auto mantissa = *rc::gen::inRange<std::uint32_t>(0, 1u << 23);
  const bool negative = *rc::gen::arbitrary<bool>();
  const float f = std::ldexp(1.0f + static_cast<float>(mantissa) * 0x1p-23f, exponent) * (negative ? -1.0f : 1.0f);
  const std::uint16_t up = float_to_half_bits_away_from_zero(f);
  const float back = half_bits_to_float(up);
  RC_ASSERT(std::fabs(back) >= std::fabs(f));
  RC_ASSERT((std::signbit(back) == std::signbit(f)));
  // It is the nearest half or the next one out: at most one step from round-to-nearest.
  const std::uint16_t nearest = float_to_half_bits(f);
  RC_ASSERT((up == nearest || up == nearest + 1));
}

TEST(Fp16, AwayFromZeroExamples) {
  EXPECT_EQ(float_to_half_bits_away_from_zero(1.0f), 0x3C00);               // exact stays
  EXPECT_EQ(float_to_half_bits_away_from_zero(1.0f + 0x1p-20f), 0x3C01);    // nearest is 1.0, below
  EXPECT_EQ(float_to_half_bits_away_from_zero(-(1.0f + 0x1p-20f)), 0xBC01);
  EXPECT_EQ(float_to_half_bits_away_from_zero(0x1p-30f), 0x0001);           // never rounds to 0
  EXPECT_EQ(float_to_half_bits_away_from_zero(0.0f), 0x0000);
}

}  // namespace
}  // namespace gridfuzz::formats::gguf
