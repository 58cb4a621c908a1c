// q8_1 activation quantization: hand-made row (d, s, q, roundf ties, padding), the layout
// helpers, and per-block properties on random rows.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <bit>
#include <cmath>
#include <vector>

#include "gguf_test_data.hpp"
#include "gridfuzz/formats/gguf/fp16.hpp"
#include "gridfuzz/formats/gguf/quantize_q8_1.hpp"

namespace gridfuzz::formats::gguf {
namespace {

// Independent half -> float for checks (the compiler's _Float16).
double from_half(std::uint16_t bits) { return static_cast<double>(std::bit_cast<_Float16>(bits)); }

TEST(Q8_1Layout, PaddingAndStride) {
  EXPECT_EQ(q8_1_padded_cols(0), 0u);
  EXPECT_EQ(q8_1_padded_cols(1), 512u);
  EXPECT_EQ(q8_1_padded_cols(512), 512u);
  EXPECT_EQ(q8_1_padded_cols(513), 1024u);
  EXPECT_EQ(q8_1_padded_cols(2816), 3072u);         // gemma-style hidden size
  EXPECT_EQ(q8_1_blocks_per_row(2816), 96u);
  EXPECT_EQ(q8_1_row_stride_int32(2816), 864u);     // 96 blocks * 9 int32
  EXPECT_EQ(q8_1_row_stride_int32(4096), 1152u);
  EXPECT_EQ(q8_1_padded_cols(std::uint64_t{1} << 40), std::uint64_t{1} << 40);  // no 32-bit wrap
}

TEST(QuantizeQ8_1, HandMadeRow) {
  // 40 columns -> padded to 512: 16 blocks. The buffer holds NaN past column 40 to prove the
  // padding is quantized from 0 and not read.
  std::vector<float> x(64, NAN);
  for (int j = 0; j < 40; ++j) x[j] = 0.0f;
  // Block 0: amax 127 -> d = 1 exactly; q = roundf(x): ties go away from zero.
  x[0] = 127.0f, x[1] = -127.0f, x[2] = 0.5f, x[3] = -0.5f, x[4] = 2.5f, x[5] = -1.25f, x[6] = 3.0f;
  // s = 127 - 127 + 0.5 - 0.5 + 2.5 - 1.25 + 3 = 4.25 = 1.0625 * 4 -> half 0x4400 | 0.0625*1024 = 0x4440
  // Block 1 (columns 32..39): amax 2 -> d = 2/127; q = roundf(x * 63.5), no ties near:
  const float b1[8] = {0.25f, 0.5f, 0.75f, 1.25f, 1.5f, 1.75f, -2.0f, 0.125f};
  for (int j = 0; j < 8; ++j) x[32 + j] = b1[j];
  // s = 4.125 = 1.03125 * 4 -> 0x4420. d = 2/127 = 0.015748... = 2^-6 * 1.00787 -> 0x2408.

  std::vector<block_q8_1> out(q8_1_blocks_per_row(40));
  ASSERT_EQ(out.size(), 16u);
  quantize_row_q8_1(x.data(), 40, out.data());

  EXPECT_EQ(out[0].d, 0x3C00);
  EXPECT_EQ(out[0].s, 0x4440);
  const int q0[7] = {127, -127, 1, -1, 3, -1, 3};  // roundf(0.5) = 1, roundf(-0.5) = -1, roundf(2.5) = 3
  for (int j = 0; j < 7; ++j) EXPECT_EQ(out[0].qs[j], q0[j]) << j;
  for (int j = 7; j < 32; ++j) EXPECT_EQ(out[0].qs[j], 0) << j;

  EXPECT_EQ(out[1].d, 0x2408);
  EXPECT_EQ(out[1].s, 0x4420);
  // 0.25*63.5 = 15.875 -> 16; 31.75 -> 32; 47.625 -> 48; 79.375 -> 79; 95.25 -> 95;
  // 111.125 -> 111; -127; 7.9375 -> 8
  const int q1[8] = {16, 32, 48, 79, 95, 111, -127, 8};
  for (int j = 0; j < 8; ++j) EXPECT_EQ(out[1].qs[j], q1[j]) << j;
  for (int j = 8; j < 32; ++j) EXPECT_EQ(out[1].qs[j], 0) << "padding column " << 32 + j;

  for (int b = 2; b < 16; ++b) {  // all-padding blocks: amax 0 -> d = 0, q = 0, s = 0
    EXPECT_EQ(out[b].d, 0) << b;
    EXPECT_EQ(out[b].s, 0) << b;
    for (int j = 0; j < 32; ++j) EXPECT_EQ(out[b].qs[j], 0) << b;
  }
}

TEST(QuantizeQ8_1, SumIsOfTheOriginalFloatsNotOfTheQuants) {
  // 32 values of 0.3: amax 0.3, every q = 127, d*sum(q) = 0.3*32 = 9.6 either way; use values
  // where they differ: 1.0 and 31 x 0.004 -> q = 127 and roundf(0.004*127) = roundf(0.508) = 1.
  // sum x = 1.124 (half 0x3C7F or nearest); d*sum(q) = (1/127)*(127+31) = 1.244.
  float x[32];
  x[0] = 1.0f;
  for (int j = 1; j < 32; ++j) x[j] = 0.004f;
  const block_q8_1 b = quantize_block_q8_1(x);
  EXPECT_EQ(b.qs[0], 127);
  EXPECT_EQ(b.qs[1], 1);
  EXPECT_NEAR(from_half(b.s), 1.124, 1e-3);
}

RC_GTEST_PROP(QuantizeQ8_1, BlocksFollowTheDefinition, ()) {
  const auto cols = *rc::gen::inRange<std::size_t>(1, 1100);
  const auto x = *testing::gen_row((cols + 31) / 32 * 32);
  std::vector<block_q8_1> out(q8_1_blocks_per_row(cols));
  quantize_row_q8_1(x.data(), cols, out.data());
  for (std::size_t b = 0; b < out.size(); ++b) {
    double amax = 0, sum = 0, abs_sum = 0;
    for (std::size_t j = 0; j < 32; ++j) {
      const std::size_t c = b * 32 + j;
      const double v = c < cols ? x[c] : 0.0;
      amax = std::max(amax, std::fabs(v));
      sum += v;
      abs_sum += std::fabs(v);
    }
    const float d = static_cast<float>(amax) / 127.0f;
    RC_ASSERT(out[b].d == std::bit_cast<std::uint16_t>(static_cast<_Float16>(d)));
    for (std::size_t j = 0; j < 32; ++j) {
      const std::size_t c = b * 32 + j;
      if (c >= cols || amax == 0) {
        RC_ASSERT(out[b].qs[j] == 0);
        continue;
      }
      // q is the nearest integer to x/d (up to the float division's rounding).
      RC_ASSERT(std::fabs(x[c] / static_cast<double>(d) - out[b].qs[j]) <= 0.5 + 1e-5);
    }
    // s = half(sum of the originals): float summation error plus half rounding.
    RC_ASSERT(std::fabs(from_half(out[b].s) - sum) <= std::ldexp(std::fabs(sum), -11) + 5 * std::ldexp(abs_sum, -24) +
                                                           std::ldexp(1.0, -25));
  }
}

}  // namespace
}  // namespace gridfuzz::formats::gguf
