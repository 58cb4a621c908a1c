// vllm.moe_mmq's plans against the sm_90 limits: the aligned routing's sizes as vLLM allocates
// them, grid.y refused where those blocks pass 65535, the int expert byte offset wrapping from
// expert 131 of a DeepSeek-V3-sized bank (moe.cuh:36), and the chunked fix never refused.
#include <gtest/gtest.h>

#include "cuda/upstream_kernels.hpp"
#include "gridfuzz/vllm/register.hpp"
#include "plan/moe_mmq_plan.hpp"
#include "plan_test_support.hpp"

namespace gridfuzz::vllm {
namespace {

using gguf::testing::index_named;
using gguf::testing::params_for;
using gguf::testing::predict_for;
using gguf::testing::sm90;

const auto mmq = make_moe_mmq_kernel();

TEST(VllmMoeMmqPlan, AlignedRoutingSizesAreVllmsAllocation) {
  const AlignedRoutingSizes big = aligned_routing_sizes(2048, 128, 4);  // pairs + experts * 3
  EXPECT_EQ(big.max_padded, 2048u + 128 * 3);
  EXPECT_EQ(big.blocks, (2048u + 384) / 4);
  const AlignedRoutingSizes few = aligned_routing_sizes(8, 128, 4);  // fewer pairs than experts
  EXPECT_EQ(few.max_padded, 32u);
  EXPECT_EQ(few.blocks, 8u);
}

TEST(VllmMoeMmqPlan, TilesAreUpstreamsHeaders) {
  for (gguf::QuantType t : moe_mmq_quant_types()) {
    const MmqTile tile = moe_mmq_tile(t);
    EXPECT_EQ(tile.mmq_x, 4);   // MOE_X_<T> on CUDA
    EXPECT_EQ(tile.mmq_y, 32);  // MOE_Y_<T>
    EXPECT_EQ(tile.nwarps, 4);  // NWARPS_<T>
  }
}

TEST(VllmMoeMmqPlan, UpstreamRefusedWhereTheRoutingBlocksPass65535) {
  // (tokens * 8 + 128 * 3) / 4 > 65535 from 32720 tokens.
  EXPECT_EQ(predict_for(*mmq, "upstream", "tokens=32719").outcome, "accept");
  EXPECT_EQ(predict_for(*mmq, "upstream", "tokens=32720").outcome, "refuse:grid.y");
  EXPECT_EQ(predict_for(*mmq, "chunked", "tokens=32720").outcome, "accept");
  EXPECT_EQ(predict_for(*mmq, "chunked", "tokens=300000").outcome, "accept");
  const LaunchPlan plan = mmq->plan(params_for(*mmq, "tokens=256"), "upstream", sm90());
  ASSERT_EQ(plan.launches.size(), 2u);
  EXPECT_EQ(plan.launches[1].grid, (Dim3{1408 / 32, (256 * 8 + 128 * 3) / 4, 1}));
  EXPECT_EQ(plan.launches[1].block, (Dim3{32, 4, 1}));
}

TEST(VllmMoeMmqPlan, ExpertByteOffsetWrapsFromExpert131OfADeepSeekSizedBank) {
  const std::string deepseek = "rows=4096,cols=7168,tokens=256,top_k=8,experts=";
  EXPECT_TRUE(index_named(*mmq, "upstream", deepseek + "131", "expert_byte_offset").safe);   // 130 * 16515072
  EXPECT_FALSE(index_named(*mmq, "upstream", deepseek + "132", "expert_byte_offset").safe);  // 131 * 16515072
  EXPECT_FALSE(index_named(*mmq, "chunked", deepseek + "132", "expert_byte_offset").safe);   // inside the kernel
}

TEST(VllmMoeMmqPlan, DstIndexWrapsAsAnUnsignedPastTwoTo32) {
  EXPECT_TRUE(index_named(*mmq, "chunked", "tokens=190652", "dst_index").safe);    // 2^31 < pairs*rows
  EXPECT_FALSE(index_named(*mmq, "chunked", "tokens=381301", "dst_index").safe);   // > 2^32
}

}  // namespace
}  // namespace gridfuzz::vllm
