// 6-bit scale packing: decode of hand-packed bytes, and encode/decode as exact inverses.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <vector>

#include "gridfuzz/formats/gguf/scale_packing.hpp"

namespace gridfuzz::formats::gguf {
namespace {

TEST(ScalePacking, DecodeK4ByHand) {
  // Sub 1: scale 9, min 40 in the low 6 bits of bytes 1 and 5; sub 6: scale 0b10'0111 = 39, min
  // 0b01'1100 = 28: low nibbles 7 and 12 in byte 10 (0xC7), top pairs 2 and 1 in bytes 2 and 6.
  std::uint8_t s[12] = {};
  s[1] = 9, s[5] = 40;
  s[10] = 0xC7, s[2] = 0x80, s[6] = 0x40;
  EXPECT_EQ(decode_scale_min_k4(s, 1).scale, 9);
  EXPECT_EQ(decode_scale_min_k4(s, 1).min, 40);
  EXPECT_EQ(decode_scale_min_k4(s, 6).scale, 39);
  EXPECT_EQ(decode_scale_min_k4(s, 6).min, 28);
  EXPECT_EQ(decode_scale_min_k4(s, 2).scale, 0);  // byte 2's top bits belong to sub 6
  EXPECT_EQ(decode_scale_min_k4(s, 2).min, 0);
}

TEST(ScalePacking, DecodeQ3KByHand) {
  // Sub 10 = 0b10'0101 = 37: low nibble 5 in the high nibble of byte 2, pair 2 at byte 8 + 10%4
  // = 10, bits 2*(10/4) = 4..5.
  std::uint8_t s[12] = {};
  s[2] = 0x50;
  s[10] = 0x20;
  EXPECT_EQ(decode_scale_q3_K(s, 10), 37);
  EXPECT_EQ(decode_scale_q3_K(s, 2), 0);
  EXPECT_EQ(decode_scale_q3_K(s, 6), 0);  // byte 10 bits 2-3
}

TEST(ScalePacking, DecodeIq4XsByHand) {
  // Group 5 = 0b11'1001 = 57: low nibble 9 in the high nibble of scales_l[2], pair 3 at bits 10-11.
  const std::uint8_t l[4] = {0, 0, 0x90, 0};
  EXPECT_EQ(decode_scale_iq4_xs(0x0C00, l, 5), 57);
  EXPECT_EQ(decode_scale_iq4_xs(0x0C00, l, 4), 0);
}

RC_GTEST_PROP(ScalePacking, K4EncodeDecodeRoundTrip, ()) {
  const auto scales = *rc::gen::container<std::vector<int>>(8, rc::gen::inRange(0, 64));
  const auto mins = *rc::gen::container<std::vector<int>>(8, rc::gen::inRange(0, 64));
  ScaleMin v[8];
  for (int i = 0; i < 8; ++i) v[i] = {static_cast<std::uint8_t>(scales[i]), static_cast<std::uint8_t>(mins[i])};
  std::uint8_t packed[12];
  encode_scale_min_k4(v, packed);
  for (int i = 0; i < 8; ++i) {
    RC_ASSERT(decode_scale_min_k4(packed, i).scale == v[i].scale);
    RC_ASSERT(decode_scale_min_k4(packed, i).min == v[i].min);
  }
}

RC_GTEST_PROP(ScalePacking, Q3KEncodeDecodeRoundTrip, ()) {
  const auto values = *rc::gen::container<std::vector<int>>(16, rc::gen::inRange(0, 64));
  std::uint8_t v[16];
  for (int i = 0; i < 16; ++i) v[i] = static_cast<std::uint8_t>(values[i]);
  std::uint8_t packed[12];
  encode_scales_q3_K(v, packed);
  for (int i = 0; i < 16; ++i) RC_ASSERT(decode_scale_q3_K(packed, i) == v[i]);
}

RC_GTEST_PROP(ScalePacking, Iq4XsEncodeDecodeRoundTrip, ()) {
  const auto values = *rc::gen::container<std::vector<int>>(8, rc::gen::inRange(0, 64));
  std::uint8_t v[8];
  for (int i = 0; i < 8; ++i) v[i] = static_cast<std::uint8_t>(values[i]);
  std::uint16_t high = 0;
  std::uint8_t low[4];
  encode_scales_iq4_xs(v, high, low);
  for (int i = 0; i < 8; ++i) RC_ASSERT(decode_scale_iq4_xs(high, low, i) == v[i]);
}

}  // namespace
}  // namespace gridfuzz::formats::gguf
