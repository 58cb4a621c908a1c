// The legacy host arithmetic itself: int32 M*N, the size_t division, the int32 dispatch test.
#include <gtest/gtest.h>

#include "gridfuzz/affine/matmul_plan.hpp"

namespace gridfuzz::affine {
namespace {

TEST(LegacyArithmetic, BatchCountIsOneWhileMTimesNFits) {
  const auto b = legacy_batch_count(16743ull * 128256, 16743, 128256);
  EXPECT_FALSE(b.div_by_zero);
  EXPECT_EQ(b.l, 1);
}

TEST(LegacyArithmetic, NegativeProductGivesZeroBatches) {
  // 16744*128256 = 2147518464 >= 2^31: the int product is negative, the size_t divisor huge.
  const auto b = legacy_batch_count(16744ull * 128256, 16744, 128256);
  EXPECT_FALSE(b.div_by_zero);
  EXPECT_EQ(b.l, 0);
}

TEST(LegacyArithmetic, ExactMultipleOfTwoTo32DividesByZero) {
  EXPECT_TRUE(legacy_batch_count(16384ull * 262144, 16384, 262144).div_by_zero);
  EXPECT_FALSE(legacy_batch_count(16383ull * 262144, 16383, 262144).div_by_zero);
}

TEST(LegacyArithmetic, WrappedPositiveBatchCountsOfKernelsMd) {
  // docs/KERNELS.md, "Dense LM head past the first wrap": the first T where the product wraps back
  // to positive.
  EXPECT_EQ(legacy_batch_count(33488ull * 128256, 33488, 128256).l, 61681);
  EXPECT_EQ(legacy_batch_count(28269ull * 151936, 28269, 151936).l, 38525);
  EXPECT_EQ(legacy_batch_count(16385ull * 262144, 16385, 262144).l, 16385);
  EXPECT_EQ(legacy_batch_count(33487ull * 128256, 33487, 128256).l, 0);
}

TEST(LegacyArithmetic, WrapInt32IsTwosComplement) {
  EXPECT_EQ(wrap_int32(2147483648ll), INT32_MIN);
  EXPECT_EQ(wrap_int32(4294967296ll), 0);
  EXPECT_EQ(wrap_int32(4295036928ll), 69632);
  EXPECT_EQ(wrap_int32(-1), -1);
}

TEST(LegacyArithmetic, TileAndSharedMemory) {
  EXPECT_EQ(qmm_tile_m(1), 16);
  EXPECT_EQ(qmm_tile_m(17), 32);
  EXPECT_EQ(qmm_tile_m(33), 64);
  EXPECT_EQ(qmm_tile_m(1u << 30), 64);
  EXPECT_EQ(qmm_tile_k(32), 64);
  EXPECT_EQ(qmm_tile_k(128), 128);
  // docs/KERNELS.md, "MLX qmm_sm80": bf16, 4-bit, tile 64x128x64 -> 36864 B, no opt-in.
  EXPECT_EQ(qmm_smem_bytes(64, 64, 4, Dtype::bfloat16), 36864u);
  // 8-bit, group 128: 64*128*3*2 + 128*128*3 = 98304 B, over the 48000 B threshold.
  EXPECT_EQ(qmm_smem_bytes(64, 128, 8, Dtype::float16), 98304u);
}

}  // namespace
}  // namespace gridfuzz::affine
