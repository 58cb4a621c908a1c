// torch's CUDA caching allocator as plan/torch_alloc_rules.hpp reproduces it (default
// configuration): round_size (512-byte blocks) and get_allocation_size (2 MiB / 20 MiB / 2 MiB-
// rounded segments). Expected values worked out by hand from the cited rules.
#include <gtest/gtest.h>

#include "plan/torch_alloc_rules.hpp"

namespace gridfuzz::vllm {
namespace {

constexpr std::uint64_t kMiB = 1024 * 1024;

TEST(TorchAllocRules, RoundSizeGivesWhole512ByteBlocks) {
  EXPECT_EQ(torch_round_size(0), 512u);
  EXPECT_EQ(torch_round_size(1), 512u);
  EXPECT_EQ(torch_round_size(511), 512u);
  EXPECT_EQ(torch_round_size(512), 512u);
  EXPECT_EQ(torch_round_size(513), 1024u);
  EXPECT_EQ(torch_round_size(UINT64_MAX), std::nullopt);
}

TEST(TorchAllocRules, SegmentsAreSmallLargeOrRoundedAtTheBoundaries) {
  // Up to 1 MiB (kSmallSize, inclusive): a 2 MiB small segment.
  EXPECT_EQ(torch_segment_size(512), 2 * kMiB);
  EXPECT_EQ(torch_segment_size(kMiB), 2 * kMiB);
  // Past it and below 10 MiB: a 20 MiB segment.
  EXPECT_EQ(torch_segment_size(kMiB + 512), 20 * kMiB);
  EXPECT_EQ(torch_segment_size(10 * kMiB - 512), 20 * kMiB);
  // From 10 MiB: the request rounded up to 2 MiB.
  EXPECT_EQ(torch_segment_size(10 * kMiB), 10 * kMiB);
  EXPECT_EQ(torch_segment_size(10 * kMiB + 512), 12 * kMiB);
  EXPECT_EQ(torch_segment_size(UINT64_MAX - 511), std::nullopt);
}

TEST(TorchAllocRules, AFreshAllocationIsReadableToItsSegmentsEnd) {
  const auto a = torch_fresh_allocation(513);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->block, 1024u);
  EXPECT_EQ(a->segment, 2 * kMiB);
  EXPECT_EQ(a->readable_after, 2 * kMiB - 513);
  // 1 MiB + 1 byte rounds to 1 MiB + 512: past the small/large boundary, a 20 MiB segment.
  const auto b = torch_fresh_allocation(kMiB + 1);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->block, kMiB + 512);
  EXPECT_EQ(b->segment, 20 * kMiB);
  // vLLM's q8_1 scratch of 8 tokens x 7168 columns (gguf_kernel.cu:115: new_empty of
  // padded / 32 x 9 ints per vector): 8 x 224 x 36 = 64512 bytes = 126 blocks of 512 exactly.
  const auto c = torch_fresh_allocation(8 * 7168 / 32 * 9 * 4);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->block, 64512u);
  EXPECT_EQ(c->readable_after, 2 * kMiB - 64512);
}

}  // namespace
}  // namespace gridfuzz::vllm
