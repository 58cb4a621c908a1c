// llama.cpp's allocation rules as plan/ggml_alloc_rules.hpp reproduces them (each cited there):
// the CUDA buffer type's padding of a quantized tensor's last row, ggml-alloc's 128-byte
// alignment, the legacy pool's 1.05x rounded to 256 bytes, and the VMM pool's 128-byte steps in
// whole granules. Expected values worked out by hand from the cited lines.
#include <gtest/gtest.h>

#include <cstdint>

#include "plan/ggml_alloc_rules.hpp"

namespace gridfuzz::llamacpp {
namespace {

constexpr std::uint64_t kMiB = 1024 * 1024;

TEST(GgmlAllocRules, QuantizedRowPaddedToAMultipleOf512ValuesOnceNotPerRow) {
  // q4_0 (32 values, 18 bytes): 2880 columns (gpt-oss) = 5 x 512 + 320: 192 values more = 6 blocks.
  const std::uint64_t q4_0_rows = 2880 / 32 * 18 * 100;
  EXPECT_EQ(cuda_tensor_alloc_size(q4_0_rows, 2880, 32, 18), q4_0_rows + 6 * 18);
  // 2848 columns = 5 x 512 + 288: 224 values = 7 blocks, once for the tensor, not per row.
  EXPECT_EQ(cuda_tensor_alloc_size(1000, 2848, 32, 18), 1000u + 7 * 18);
  // q4_K (256 values, 144 bytes): 2816 = 5 x 512 + 256: one block.
  EXPECT_EQ(cuda_tensor_alloc_size(5000, 2816, 256, 144), 5000u + 144);
  // A multiple of 512 (DeepSeek-V3's 7168): no padding.
  EXPECT_EQ(cuda_tensor_alloc_size(7168 / 32 * 18, 7168, 32, 18), 7168u / 32 * 18);
  // 511 and 513 are not whole q4_0 blocks: refused, as ggml's row rule refuses them.
  EXPECT_EQ(cuda_tensor_alloc_size(100, 511, 32, 18), std::nullopt);
  EXPECT_EQ(cuda_tensor_alloc_size(100, 513, 32, 18), std::nullopt);
  // 32 columns of q8_0 (34 bytes): 480 values = 15 blocks.
  EXPECT_EQ(cuda_tensor_alloc_size(34, 32, 32, 34), 34u + 15 * 34);
  // Not quantized (f32, i32): never padded, whatever ne0.
  EXPECT_EQ(cuda_tensor_alloc_size(4 * 2880, 2880, 1, 4), 4u * 2880);
  // Past 2^64: nullopt, not a wrapped size.
  EXPECT_EQ(cuda_tensor_alloc_size(UINT64_MAX - 10, 2880, 32, 18), std::nullopt);
}

TEST(GgmlAllocRules, BufferFootprintIsAMultipleOf128) {
  EXPECT_EQ(cuda_buffer_footprint(0), 0u);
  EXPECT_EQ(cuda_buffer_footprint(1), 128u);
  EXPECT_EQ(cuda_buffer_footprint(128), 128u);
  EXPECT_EQ(cuda_buffer_footprint(129), 256u);
  EXPECT_EQ(cuda_buffer_footprint(UINT64_MAX), std::nullopt);
}

TEST(GgmlAllocRules, LegacyPoolAllocates105PercentRoundedTo256) {
  EXPECT_EQ(legacy_pool_alloc_size(0), 0u);
  EXPECT_EQ(legacy_pool_alloc_size(1), 256u);    // (size_t)1.05 = 1, rounded up to 256
  EXPECT_EQ(legacy_pool_alloc_size(100), 256u);  // 105
  EXPECT_EQ(legacy_pool_alloc_size(1000), 1280u);  // 1050 -> 1280
  // The q8_1 scratch of DeepSeek-V3 gate/up at 4096 tokens (252 MiB): 264.6 MiB.
  // The q8_1 scratch of DeepSeek-V3 gate/up at 4096 tokens (252 MiB): 1.05 x 264241152 =
  // 277453209.6, truncated, rounded up to 256: 12.6 MiB of slack past the scratch.
  EXPECT_EQ(legacy_pool_alloc_size(252 * kMiB), 277453312u);
  EXPECT_EQ(legacy_pool_alloc_size((std::uint64_t{1} << 60) + 1), std::nullopt);
}

TEST(GgmlAllocRules, VmmPoolSteps128BytesAndMapsWholeGranules) {
  VmmPoolModel pool(2 * kMiB);
  // mmq with ids: ids_src1, ids_dst (4 bytes per pair), expert_bounds (4 x (experts + 1)), then
  // the q8_1 scratch (mmq.cu:239-241, :259). 1299 tokens x top_k 8, 256 experts, cols 7168:
  const std::uint64_t pairs = 1299 * 8;
  const auto a = pool.alloc(4 * pairs);  // 41568 -> 41600
  ASSERT_TRUE(a);
  EXPECT_EQ(a->offset, 0u);
  EXPECT_EQ(a->size, 41600u);
  EXPECT_EQ(a->map_bytes, 2 * kMiB);  // the first granule
  const auto b = pool.alloc(4 * pairs);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->offset, 41600u);
  EXPECT_EQ(b->map_bytes, 0u);
  const auto c = pool.alloc(4 * 257);  // 1028 -> 1152
  ASSERT_TRUE(c);
  EXPECT_EQ(c->size, 1152u);
  // The scratch: pairs x 7168 / 128 x 144 bytes (mmq.cu:257-258; gate/up: ne11 = 1, no J padding).
  const std::uint64_t scratch = 1299ull * 8 * 7168 / 128 * 144;  // 83801088, a multiple of 128
  const auto d = pool.alloc(scratch);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->offset, 41600u * 2 + 1152);
  EXPECT_EQ(d->size, scratch);
  // 83885440 bytes used: 40 granules (83886080), the scratch's end 640 bytes below the mapped end:
  // the count docs/upstream/repro/llamacpp_moe_repro.cpp (f3 plan) picked, which faulted in
  // llama.cpp's own pool on an H100 (docs/upstream/llama-cpp.md, finding 3).
  EXPECT_EQ(pool.mapped(), 40 * 2 * kMiB);
  EXPECT_EQ(d->map_bytes, 39 * 2 * kMiB);
  EXPECT_EQ(pool.mapped() - d->offset - scratch, 640u);
  EXPECT_EQ(vmm_slack_after(2 * 41600 + 1152, scratch, 2 * kMiB), 640u);
  // Reverse-order frees only (ggml-cuda.cu:674).
  EXPECT_FALSE(pool.free(a->offset, a->size));
  EXPECT_TRUE(pool.free(d->offset, d->size));
  EXPECT_TRUE(pool.free(c->offset, c->size));
  EXPECT_EQ(pool.used(), 2 * 41600u);
  EXPECT_EQ(pool.mapped(), 80 * kMiB);  // stays mapped
  // A request that fits in what is mapped maps nothing.
  const auto e = pool.alloc(kMiB);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->map_bytes, 0u);
  EXPECT_EQ(VmmPoolModel(0).alloc(1), std::nullopt);
}

TEST(GgmlAllocRules, VmmSlackAfterTheLastRequestIsTheMappedTail) {
  // Exactly a granule: no slack (the 2 MiB-multiple scratches that faulted on the H200 in exact
  // mode, alone in the pool, would fault in llama.cpp too).
  EXPECT_EQ(vmm_slack_after(0, 2 * kMiB, 2 * kMiB), 0u);
  EXPECT_EQ(vmm_slack_after(0, 2 * kMiB + 1, 2 * kMiB), 2 * kMiB - 1);
  // 128 bytes of earlier allocations push a 2 MiB request into a second granule.
  EXPECT_EQ(vmm_slack_after(128, 2 * kMiB, 2 * kMiB), 2 * kMiB - 128);
  EXPECT_EQ(vmm_slack_after(0, UINT64_MAX, 2 * kMiB), std::nullopt);
}

}  // namespace
}  // namespace gridfuzz::llamacpp
