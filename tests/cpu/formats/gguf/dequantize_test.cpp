// Hand-built blocks for every type: field values chosen by hand, expected values worked out by
// hand from the formulas of docs/KERNELS.md, "GGUF dequantization" (the arithmetic is in the
// comments). Half bit patterns: 0x3C00 = 1.0, 0x3800 = 0.5, 0x3400 = 0.25, 0x3000 = 0.125,
// 0xBC00 = -1.0.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "gridfuzz/formats/gguf/blocks.hpp"
#include "gridfuzz/formats/gguf/dequantize.hpp"

namespace gridfuzz::formats::gguf {
namespace {

template <class Block>
std::vector<float> values_of(QuantType t, const Block& b) {
  std::vector<float> y(quant_traits(t).qk);
  dequantize_row(t, &b, y.data(), y.size());
  return y;
}

template <std::size_t N>
void expect_values(const std::vector<float>& got, const std::array<float, N>& want) {
  ASSERT_EQ(got.size(), N);
  for (std::size_t i = 0; i < N; ++i) EXPECT_EQ(got[i], want[i]) << "element " << i;
}

// Fill a 256-value expectation sub-block by sub-block (len values each).
std::array<float, 256> per_sub_block(int len, std::initializer_list<std::pair<int, float>> subs) {
  std::array<float, 256> a{};
  for (auto [sub, v] : subs) {
    for (int i = 0; i < len; ++i) a[sub * len + i] = v;
  }
  return a;
}

TEST(Dequantize, Q4_0ByHand) {
  block_q4_0 b{};
  b.d = 0x3800;                      // 0.5
  std::memset(b.qs, 0x88, 16);       // nibble 8 -> (8-8)*0.5 = 0
  b.qs[0] = 0x9A;                    // x0 = (10-8)*0.5 = 1.0, x16 = (9-8)*0.5 = 0.5
  b.qs[1] = 0x0F;                    // x1 = (15-8)*0.5 = 3.5, x17 = (0-8)*0.5 = -4.0
  b.qs[15] = 0x3C;                   // x15 = (12-8)*0.5 = 2.0, x31 = (3-8)*0.5 = -2.5
  std::array<float, 32> want{};
  want[0] = 1.0f, want[16] = 0.5f, want[1] = 3.5f, want[17] = -4.0f, want[15] = 2.0f, want[31] = -2.5f;
  expect_values(values_of(QuantType::q4_0, b), want);
}

TEST(Dequantize, Q4_1ByHand) {
  block_q4_1 b{};
  b.d = 0x3400;                      // 0.25
  b.m = 0xBC00;                      // -1.0
  std::memset(b.qs, 0x44, 16);       // 4*0.25 - 1 = 0
  b.qs[0] = 0x3C;                    // x0 = 12*0.25 - 1 = 2.0, x16 = 3*0.25 - 1 = -0.25
  b.qs[7] = 0xF0;                    // x7 = 0 - 1 = -1.0, x23 = 15*0.25 - 1 = 2.75
  std::array<float, 32> want{};
  want[0] = 2.0f, want[16] = -0.25f, want[7] = -1.0f, want[23] = 2.75f;
  expect_values(values_of(QuantType::q4_1, b), want);
}

TEST(Dequantize, Q5_0ByHand) {
  block_q5_0 b{};
  b.d = 0x3800;                          // 0.5
  const std::uint8_t qh[4] = {0xFE, 0xFF, 0xFF, 0x7F};  // every 5th bit set but bit 0 and bit 31
  std::memcpy(b.qh, qh, 4);              // nibble 0 with the bit: (16 - 16)*0.5 = 0
  b.qs[0] = 0x21;                        // x0: (1 | 0) - 16 = -15 -> -7.5; x16: (2 | 16) - 16 = 2 -> 1.0
  b.qs[5] = 0x0F;                        // x5: (15 | 16) - 16 = 15 -> 7.5; x21: 0 -> 0
  b.qs[15] = 0xF0;                       // x15: 0 -> 0; x31: (15 | 0) - 16 = -1 -> -0.5 (bit 31 is byte 3)
  std::array<float, 32> want{};
  want[0] = -7.5f, want[16] = 1.0f, want[5] = 7.5f, want[31] = -0.5f;
  expect_values(values_of(QuantType::q5_0, b), want);
}

TEST(Dequantize, Q5_1ByHand) {
  block_q5_1 b{};
  b.d = 0x3800;                     // 0.5
  b.m = 0x3400;                     // 0.25: all-zero quants give 0.25
  b.qh[0] = 0x02;                   // bit 1: element 1
  b.qh[2] = 0x80;                   // bit 23: element 23
  b.qs[1] = 0x73;                   // x1 = (3|16)*0.5 + 0.25 = 9.75; x17 = 7*0.5 + 0.25 = 3.75
  b.qs[7] = 0x10;                   // x7 = 0.25; x23 = (1|16)*0.5 + 0.25 = 8.75
  std::array<float, 32> want;
  want.fill(0.25f);
  want[1] = 9.75f, want[17] = 3.75f, want[23] = 8.75f;
  expect_values(values_of(QuantType::q5_1, b), want);
}

TEST(Dequantize, Q8_0ByHand) {
  block_q8_0 b{};
  b.d = 0x3000;                                  // 0.125
  b.qs[0] = -128, b.qs[1] = 127, b.qs[2] = 1, b.qs[31] = -3;
  std::array<float, 32> want{};
  want[0] = -16.0f, want[1] = 15.875f, want[2] = 0.125f, want[31] = -0.375f;  // q * 0.125
  expect_values(values_of(QuantType::q8_0, b), want);
}

TEST(Dequantize, Q8_1ByHand) {
  block_q8_1 b{};
  b.d = 0x3400;                                  // 0.25
  b.s = 0x7BFF;                                  // s is not used by dequantization
  b.qs[3] = -7, b.qs[30] = 100;
  std::array<float, 32> want{};
  want[3] = -1.75f, want[30] = 25.0f;
  expect_values(values_of(QuantType::q8_1, b), want);
}

TEST(Dequantize, IQ4_NLByHand) {
  block_iq4_nl b{};
  b.d = 0x3800;                    // 0.5
  std::memset(b.qs, 0x88, 16);     // table[8] = 1 -> 0.5
  b.qs[0] = 0xF0;                  // x0 = table[0] = -127 -> -63.5; x16 = table[15] = 113 -> 56.5
  b.qs[1] = 0x78;                  // x1 = table[8] = 1 -> 0.5; x17 = table[7] = -10 -> -5.0
  b.qs[9] = 0x5C;                  // x9 = table[12] = 53 -> 26.5; x25 = table[5] = -35 -> -17.5
  std::array<float, 32> want;
  want.fill(0.5f);
  want[0] = -63.5f, want[16] = 56.5f, want[17] = -5.0f, want[9] = 26.5f, want[25] = -17.5f;
  expect_values(values_of(QuantType::iq4_nl, b), want);
}

TEST(Dequantize, Q2_KByHand) {
  block_q2_K b{};
  b.d = 0x3800;     // 0.5
  b.dmin = 0x3400;  // 0.25; x = 0.5*scale*q - 0.25*min per 16-value sub-block
  b.scales[0] = 0x21;   // sub 0 (e 0..15):    scale 1, min 2 -> 0.5q - 0.5
  b.scales[2] = 0x12;   // sub 2 (e 32..47):   scale 2, min 1 -> 1.0q - 0.25
  b.scales[3] = 0x53;   // sub 3 (e 48..63):   scale 3, min 5 -> 1.5q - 1.25
  b.scales[4] = 0x04;   // sub 4 (e 64..79):   scale 4, min 0 -> 2.0q
  b.scales[6] = 0x37;   // sub 6 (e 96..111):  scale 7, min 3 -> 3.5q - 0.75
  b.scales[9] = 0xF0;   // sub 9 (e 144..159): scale 0, min 15 -> -3.75 whatever q
  b.scales[15] = 0x1F;  // sub 15 (e 240..255): scale 15, min 1 -> 7.5q - 0.25
  // Element e = 128n + 32j + l takes bits 2j..2j+1 of qs[32n + l].
  b.qs[0] = 0xE4;   // 0b11'10'01'00: e0 q=0 (-0.5), e32 q=1 (0.75), e64 q=2 (4.0), e96 q=3 (10.5-0.75 = 9.75)
  b.qs[5] = 0x03;   // e5 q=3: 1.5 - 0.5 = 1.0
  b.qs[16] = 0x04;  // e16 q=0 (sub 1: 0); e48 q=1: 1.5 - 1.25 = 0.25
  b.qs[63] = 0xC0;  // n=1, l=31, j=3 -> e255 q=3: 22.5 - 0.25 = 22.25
  auto want = per_sub_block(16, {{0, -0.5f}, {2, -0.25f}, {3, -1.25f}, {6, -0.75f}, {9, -3.75f}, {15, -0.25f}});
  want[5] = 1.0f, want[32] = 0.75f, want[48] = 0.25f, want[64] = 4.0f, want[96] = 9.75f, want[255] = 22.25f;
  expect_values(values_of(QuantType::q2_K, b), want);
}

TEST(Dequantize, Q3_KByHand) {
  block_q3_K b{};
  b.d = 0x3400;  // 0.25; x = 0.25 * (S6 - 32) * q, q = low2 - (hmask bit ? 0 : 4)
  // Scales: every sub-block S6 = 32 (factor 0) except sub 0 = 33 (+1), sub 9 = 0 (-32),
  // sub 13 = 63 (+31). S6 = 32 is low nibble 0 with high pair 2, so bytes 8..11 start as 0xAA.
  b.scales[0] = 0x01;   // sub 0 low nibble 1 (high pair: byte 8 bits 0-1 = 2) -> 33
  b.scales[5] = 0xF0;   // sub 13 low nibble 15 (high nibble of byte 13-8)
  b.scales[8] = 0xAA;
  b.scales[9] = 0xCA;   // sub 9 pair (bits 4-5) = 0, sub 13 pair (bits 6-7) = 3, subs 1, 5 stay 2
  b.scales[10] = 0xAA;
  b.scales[11] = 0xAA;
  std::memset(b.hmask, 0xFF, 32);  // high bit set: q = low2
  // Element e = 128n + 32j + l: low2 = bits 2j.. of qs[32n + l], high = bit 4n + j of hmask[l].
  b.qs[0] = 0x03;                  // e0: q = 3 -> 0.25*1*3 = 0.75
  b.qs[1] = 0x02, b.hmask[1] = 0xFE;  // e1: q = 2 - 4 = -2 -> -0.5
  b.hmask[2] = 0xFE;                  // e2: q = 0 - 4 = -4 -> -1.0
  b.qs[48] = 0x21;                 // e144 (n1 j0 l16): q = 1 -> 0.25*-32*1 = -8.0;
                                   // e208 (n1 j2 l16): q = 2 -> 0.25*31*2 = 15.5
  b.qs[49] = 0x03, b.hmask[17] = 0xEF;  // e145 (n1 j0 l17): q = 3 - 4 = -1 -> 8.0
  b.hmask[18] = 0xBF;                   // e210 (n1 j2 l18): q = -4 -> 0.25*31*-4 = -31.0
  std::array<float, 256> want{};
  want[0] = 0.75f, want[1] = -0.5f, want[2] = -1.0f, want[144] = -8.0f, want[145] = 8.0f;
  want[208] = 15.5f, want[210] = -31.0f;
  expect_values(values_of(QuantType::q3_K, b), want);
}

TEST(Dequantize, Q4_KByHand) {
  block_q4_K b{};
  b.d = 0x3800;     // 0.5
  b.dmin = 0x3400;  // 0.25; x = 0.5*scale*q - 0.25*min per 32-value sub-block
  b.scales[0] = 0x01;  // sub 0 scale 1
  b.scales[4] = 0x02;  // sub 0 min 2 -> 0.5q - 0.5
  // Sub 5: scale 37 = 0b10'0101, min 50 = 0b11'0010: low 4 bits in byte 9 (scale low nibble,
  // min high nibble), top 2 bits in bits 6-7 of byte 1 (scale) and byte 5 (min).
  b.scales[1] = 0x80;  // sub 1 keeps scale 0 in its low 6 bits
  b.scales[5] = 0xC0;  // sub 1 keeps min 0
  b.scales[9] = 0x25;  // -> sub 5: 18.5q - 12.5
  b.qs[0] = 0x0F;   // e0: low nibble 15 -> 7.5 - 0.5 = 7.0 (high nibble -> e32, sub 1: 0)
  b.qs[64] = 0x30;  // chunk 2: low -> e128 (sub 4: 0), high 3 -> e160 = 55.5 - 12.5 = 43.0
  b.qs[95] = 0xA0;  // high 10 -> e191 = 185 - 12.5 = 172.5
  auto want = per_sub_block(32, {{0, -0.5f}, {5, -12.5f}});
  want[0] = 7.0f, want[160] = 43.0f, want[191] = 172.5f;
  expect_values(values_of(QuantType::q4_K, b), want);
}

TEST(Dequantize, Q5_KByHand) {
  block_q5_K b{};
  b.d = 0x3C00;     // 1.0
  b.dmin = 0x3800;  // 0.5
  b.scales[0] = 0x02;   // sub 0 scale 2
  b.scales[4] = 0x01;   // sub 0 min 1 -> 2q - 0.5
  b.scales[11] = 0x0F;  // sub 7 scale low 4 bits 15 (min 0)
  b.scales[3] = 0xC0;   // sub 7 scale top bits 3 -> 63 -> 63q (sub 3 keeps scale 0)
  b.qh[0] = 0x81;       // 5th bit of sub 0 (bit 0) and sub 7 (bit 7) at l = 0
  b.qh[1] = 0x01;       // 5th bit of sub 0 at l = 1
  b.qs[0] = 0x03;       // e0: 3 | 16 = 19 -> 38 - 0.5 = 37.5
                        // e1: qs[1] = 0, | 16 -> 32 - 0.5 = 31.5
  b.qs[96] = 0x10;      // e224 (chunk 3, high nibble, l 0): 1 | 16 = 17 -> 1071
  b.qs[127] = 0xF0;     // e255: 15, qh[31] bit 7 clear -> 945
  auto want = per_sub_block(32, {{0, -0.5f}});
  want[0] = 37.5f, want[1] = 31.5f, want[224] = 1071.0f, want[255] = 945.0f;
  expect_values(values_of(QuantType::q5_K, b), want);
}

TEST(Dequantize, Q6_KByHand) {
  block_q6_K b{};
  b.d = 0x3800;  // 0.5; x = 0.5 * scale * (q6 - 32); all-zero bits give q6 - 32 = -32
  b.scales[0] = 1;      // e 0..15:    default 0.5*1*-32 = -16
  b.scales[3] = -2;     // e 48..63:   default 0.5*-2*-32 = 32
  b.scales[14] = 4;     // e 224..239: default 0.5*4*-32 = -64
  b.scales[15] = -128;  // e 240..255: default 0.5*-128*-32 = 2048
  // e = 128n + 32*quarter + l: low 4 bits from ql[64n + 32*(quarter&1) + l] (low nibble for
  // quarters 0,1, high for 2,3), high 2 bits from qh[32n + l] at bit pair `quarter`.
  b.ql[0] = 0x0F, b.qh[0] = 0x03;     // e0: 15 | 3<<4 = 63 -> 31 -> 15.5
  b.qh[1] = 0x02;                     // e1: 0 | 2<<4 = 32 -> 0 -> 0
  b.ql[48] = 0x05, b.qh[16] = 0x04;   // e48 (quarter 1, l 16): 5 | 1<<4 = 21 -> -11 -> 11.0
  b.ql[96] = 0x70, b.qh[32] = 0x80;   // e224 (n1, quarter 3, l 0): 7 | 2<<4 = 39 -> 7 -> 14.0
  b.ql[127] = 0xF0, b.qh[63] = 0xC0;  // e255: 15 | 3<<4 = 63 -> 31 -> 0.5*-128*31 = -1984
  auto want = per_sub_block(16, {{0, -16.0f}, {3, 32.0f}, {14, -64.0f}, {15, 2048.0f}});
  want[0] = 15.5f, want[1] = 0.0f, want[48] = 11.0f, want[224] = 14.0f, want[255] = -1984.0f;
  expect_values(values_of(QuantType::q6_K, b), want);
}

TEST(Dequantize, IQ4_XSByHand) {
  block_iq4_xs b{};
  b.d = 0x3400;  // 0.25; x = 0.25 * (ls - 32) * table[idx] per 32-value group
  // ls = 32 (factor 0) everywhere but group 0 = 33, group 3 = 0, group 6 = 63. ls = 32 is low
  // nibble 0 with high pair 2, so scales_h starts as 0xAAAA; group 3 clears pair 3 (bits 6-7),
  // group 6 sets pair 6 (bits 12-13) to 3: 0xAAAA -> 0xAA2A -> 0xBA2A.
  b.scales_h = 0xBA2A;
  b.scales_l[0] = 0x01;  // group 0 low nibble 1 -> 33
  b.scales_l[3] = 0x0F;  // group 6 low nibble 15 -> 63
  std::memset(b.qs, 0x88, 128);  // table[8] = 1
  b.qs[0] = 0x0F;    // group 0 (0.25): e0 = 113*0.25 = 28.25, e16 = -127*0.25 = -31.75
  b.qs[48] = 0x07;   // group 3 (-8.0): e96 = -10*-8 = 80.0, e112 = -127*-8 = 1016.0
  b.qs[111] = 0x9C;  // group 6 (7.75), byte 15: e207 = 53*7.75 = 410.75, e223 = 13*7.75 = 100.75
  auto want = per_sub_block(32, {{0, 0.25f}, {3, -8.0f}, {6, 7.75f}});
  want[0] = 28.25f, want[16] = -31.75f, want[96] = 80.0f, want[112] = 1016.0f, want[207] = 410.75f,
  want[223] = 100.75f;
  expect_values(values_of(QuantType::iq4_xs, b), want);
}

TEST(Dequantize, RowOfSeveralBlocksUsesEachBlock) {
  block_q8_0 b[2]{};
  b[0].d = 0x3C00, b[0].qs[0] = 3;  // 1.0 * 3
  b[1].d = 0x3800, b[1].qs[0] = 3;  // 0.5 * 3
  std::vector<double> y(64);
  dequantize_row(QuantType::q8_0, b, y.data(), y.size());
  EXPECT_EQ(y[0], 3.0);
  EXPECT_EQ(y[32], 1.5);
}

TEST(Dequantize, RejectsPartialBlocks) {
  block_q4_K b{};
  std::vector<float> y(300);
  EXPECT_THROW(dequantize_row(QuantType::q4_K, &b, y.data(), 300), std::invalid_argument);
  EXPECT_THROW(dequantize_row(QuantType::q4_0, &b, y.data(), 33), std::invalid_argument);
}

// The check a caller runs before it touches a row: the message names the caller, the length and
// the block size; whole blocks pass.
TEST(Dequantize, RowLengthCheckNamesTheCallerAndTheBlockSize) {
  EXPECT_NO_THROW(check_row_length(QuantType::q4_K, 512, "my_kernel"));
  EXPECT_NO_THROW(check_row_length(QuantType::q8_0, 0, "my_kernel"));
  try {
    check_row_length(QuantType::q4_K, 300, "my_kernel");
    FAIL() << "300 values of q4_K passed";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("my_kernel"), std::string::npos) << what;
    EXPECT_NE(what.find("300"), std::string::npos) << what;
    EXPECT_NE(what.find("q4_K's block size 256"), std::string::npos) << what;
  }
  EXPECT_THROW(check_row_length(static_cast<QuantType>(1), 32, "my_kernel"), std::invalid_argument);
}

}  // namespace
}  // namespace gridfuzz::formats::gguf
