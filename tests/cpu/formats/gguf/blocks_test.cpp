// Byte sizes and field offsets of the block structs (ggml-common.h order,
// docs/KERNELS.md, "GGUF block layouts"): the CUDA kernels and GGUF files index raw bytes, so
// offsets matter as much as sizes.
#include <gtest/gtest.h>

#include <cstddef>

#include "gridfuzz/formats/gguf/blocks.hpp"

namespace gridfuzz::formats::gguf {
namespace {

TEST(Blocks, ByteSizes) {
  EXPECT_EQ(sizeof(block_q4_0), 18u);
  EXPECT_EQ(sizeof(block_q4_1), 20u);
  EXPECT_EQ(sizeof(block_q5_0), 22u);
  EXPECT_EQ(sizeof(block_q5_1), 24u);
  EXPECT_EQ(sizeof(block_q8_0), 34u);
  EXPECT_EQ(sizeof(block_q8_1), 36u);
  EXPECT_EQ(sizeof(block_q2_K), 84u);
  EXPECT_EQ(sizeof(block_q3_K), 110u);
  EXPECT_EQ(sizeof(block_q4_K), 144u);
  EXPECT_EQ(sizeof(block_q5_K), 176u);
  EXPECT_EQ(sizeof(block_q6_K), 210u);
  EXPECT_EQ(sizeof(block_iq4_nl), 18u);
  EXPECT_EQ(sizeof(block_iq4_xs), 136u);
}

TEST(Blocks, ArraysHaveTheFormatStride) {
  // Alignment 2 lets 18/22/34/110/210-byte blocks sit back to back; q8_1 rows are int32 arrays.
  EXPECT_EQ(alignof(block_q4_0), 2u);
  EXPECT_EQ(alignof(block_q3_K), 2u);
  EXPECT_EQ(alignof(block_q8_1), 4u);
  block_q5_0 row[3];
  EXPECT_EQ(reinterpret_cast<const char*>(&row[2]) - reinterpret_cast<const char*>(&row[0]), 44);
}

TEST(Blocks, FieldOffsets) {
  EXPECT_EQ(offsetof(block_q4_0, qs), 2u);
  EXPECT_EQ(offsetof(block_q4_1, m), 2u);
  EXPECT_EQ(offsetof(block_q4_1, qs), 4u);
  EXPECT_EQ(offsetof(block_q5_0, qh), 2u);
  EXPECT_EQ(offsetof(block_q5_0, qs), 6u);
  EXPECT_EQ(offsetof(block_q5_1, qh), 4u);
  EXPECT_EQ(offsetof(block_q5_1, qs), 8u);
  EXPECT_EQ(offsetof(block_q8_0, qs), 2u);
  EXPECT_EQ(offsetof(block_q8_1, s), 2u);
  EXPECT_EQ(offsetof(block_q8_1, qs), 4u);
  EXPECT_EQ(offsetof(block_q2_K, qs), 16u);
  EXPECT_EQ(offsetof(block_q2_K, d), 80u);
  EXPECT_EQ(offsetof(block_q2_K, dmin), 82u);
  EXPECT_EQ(offsetof(block_q3_K, qs), 32u);
  EXPECT_EQ(offsetof(block_q3_K, scales), 96u);
  EXPECT_EQ(offsetof(block_q3_K, d), 108u);
  EXPECT_EQ(offsetof(block_q4_K, dmin), 2u);
  EXPECT_EQ(offsetof(block_q4_K, scales), 4u);
  EXPECT_EQ(offsetof(block_q4_K, qs), 16u);
  EXPECT_EQ(offsetof(block_q5_K, qh), 16u);
  EXPECT_EQ(offsetof(block_q5_K, qs), 48u);
  EXPECT_EQ(offsetof(block_q6_K, qh), 128u);
  EXPECT_EQ(offsetof(block_q6_K, scales), 192u);
  EXPECT_EQ(offsetof(block_q6_K, d), 208u);
  EXPECT_EQ(offsetof(block_iq4_nl, qs), 2u);
  EXPECT_EQ(offsetof(block_iq4_xs, scales_h), 2u);
  EXPECT_EQ(offsetof(block_iq4_xs, scales_l), 4u);
  EXPECT_EQ(offsetof(block_iq4_xs, qs), 8u);
}

TEST(Blocks, Iq4NlTable) {
  const int want[16] = {-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113};
  for (unsigned i = 0; i < 16; ++i) EXPECT_EQ(iq4nl_value(i), want[i]) << i;
}

}  // namespace
}  // namespace gridfuzz::formats::gguf
