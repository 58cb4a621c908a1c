// ggml_cuda_mul_mat_q's host side (mmq.cu, mmq.cuh, mmid.cu, quantize.cu) as
// kernels/llamacpp/plan reproduces it for an H200 (sm_90 preset: 132 SMs, 227 KiB opt-in shared
// memory): expected values are upstream's formulas written out with their citations.
#include <gtest/gtest.h>

#include "plan/upstream_call_plan.hpp"

namespace gridfuzz::llamacpp {
namespace {

using gguf::MoeCallShape;
using gguf::Projection;
using gguf::QuantType;

DeviceLimits h200() { return *device_preset("sm_90"); }

MoeCallShape moe(std::uint64_t tokens, std::uint64_t rows, std::uint64_t cols, QuantType q,
                 Projection proj = Projection::gate_up, std::uint64_t experts = 256, std::uint64_t top_k = 8) {
  MoeCallShape s;
  s.tokens = tokens;
  s.top_k = top_k;
  s.experts = experts;
  s.rows = rows;
  s.cols = cols;
  s.quant = q;
  s.proj = proj;
  return s;
}

// mmq_get_nbytes_shared for J on the MMA layout: J*4 + 128*76*4 + GGML_PAD(J*144, 1024).
std::uint64_t smem(std::uint64_t J) { return J * 4 + 128 * 76 * 4 + (J * 144 + 1023) / 1024 * 1024; }

TEST(LlamacppMmqPlan, SwitchJPicksTheFirstJWithTheFewestColumnTiles) {
  // 512 tokens: J = 128 gives 4 tiles, the fewest; no smaller J reaches 4.
  EXPECT_EQ(mmq_config(QuantType::q4_0, 2048, 512, h200()).J, 128);
  // 20 tokens: J = 24 gives 1 tile (rows % 128 == 0: the non-fallback set has 24).
  EXPECT_EQ(mmq_config(QuantType::q4_0, 2048, 20, h200()).J, 24);
  // rows % 128 != 0: fallback set {8, 16, 32, 64, 128}: 20 tokens -> 32.
  const MmqConfig c = mmq_config(QuantType::q8_0, 2880, 20, h200());
  EXPECT_TRUE(c.fallback);
  EXPECT_EQ(c.J, 32);
  EXPECT_EQ(c.nbytes_shared, smem(32));
}

TEST(LlamacppMmqPlan, DeepSeekGateUpAt512TokensLaunchesHelperScatterQuantizeAndStreamK) {
  const DeviceLimits l = h200();
  const UpstreamCallPlan p = mmq_plan(moe(512, 2048, 7168, QuantType::q4_K), l);
  ASSERT_FALSE(p.host_error) << *p.host_error;
  ASSERT_GE(p.launches.size(), 3u);
  // mmid.cu:144-146: grid (experts), block (32), 4 bytes of shared memory per token.
  EXPECT_EQ(p.launches[0].name, "mm_ids_helper");
  EXPECT_EQ(p.launches[0].grid, (Dim3{256, 1, 1}));
  EXPECT_EQ(p.launches[0].dynamic_smem_bytes, 512u * 4);
  // gate/up with top_k 8 > 1 and one src1 row per token: the scatter quantizer over the tokens,
  // grid.y = ceil(GGML_PAD(7168, 512) / (4*128)).
  EXPECT_EQ(p.launches[1].name, "quantize_mmq_q8_1");
  EXPECT_EQ(p.launches[1].grid, (Dim3{512, (7168 + 511) / 512, 1}));
  // Stream-k: tiles = ceil(2048/128) * ceil(512/128) * 256 experts = 16384; 132 SMs:
  // ceil(16384/132) = 125 waves, efficiency 100*16384/(132*125) = 99 >= 90 -> one block per tile.
  EXPECT_EQ(p.launches[2].name, "mul_mat_q");
  EXPECT_EQ(p.launches[2].grid, (Dim3{16 * 4 * 256, 1, 1}));
  EXPECT_EQ(p.launches[2].block, (Dim3{32, 8, 1}));
  EXPECT_EQ(p.launches[2].dynamic_smem_bytes, smem(128));
  EXPECT_EQ(p.launches.size(), 3u) << "tiles % grid == 0: no fixup";
}

TEST(LlamacppMmqPlan, DownProjectionQuantizesTheGatheredRows) {
  const UpstreamCallPlan p = mmq_plan(moe(100, 7168, 2048, QuantType::q8_0, Projection::down), h200());
  ASSERT_FALSE(p.host_error);
  EXPECT_EQ(p.launches[1].grid, (Dim3{100 * 8, 2048 / 512, 1}));  // ne12 * n_expert_used rows
}

TEST(LlamacppMmqPlan, LowTileEfficiencyUsesOneBlockPerSmAndAFixup) {
  // Dense 4096 x 4096, 64 vectors: J = 64, tiles = 32 * 1 = 32 < 132 SMs: efficiency 100*32/132 = 24:
  // 132 blocks, 32 % 132 != 0: the fixup with grid (132, 128/32), block (32, 4).
  MoeCallShape s;
  s.dense = true;
  s.tokens = 64;
  s.rows = 4096;
  s.cols = 4096;
  s.quant = QuantType::q6_K;
  const UpstreamCallPlan p = mmq_plan(s, h200());
  ASSERT_EQ(p.launches.size(), 3u);
  EXPECT_EQ(p.launches[0].grid, (Dim3{64, 4096 / 512, 1}));
  EXPECT_EQ(p.launches[1].grid, (Dim3{132, 1, 1}));
  EXPECT_EQ(p.launches[2].name, "mul_mat_q_stream_k_fixup");
  EXPECT_EQ(p.launches[2].grid, (Dim3{132, 4, 1}));
  EXPECT_EQ(p.launches[2].block, (Dim3{32, 4, 1}));
}

TEST(LlamacppMmqPlan, TokensPastTheHelpersSharedMemoryAreUpstreamsAssertion) {
  // 227 KiB = 232448 bytes / 4 per token: 58112 tokens fit, 58113 do not (mmid.cu:146-147).
  const DeviceLimits l = h200();
  ASSERT_EQ(l.smem_per_block_optin, 232448u);
  EXPECT_FALSE(mmq_plan(moe(58112, 2048, 7168, QuantType::q4_K), l).host_error);
  const UpstreamCallPlan p = mmq_plan(moe(58113, 2048, 7168, QuantType::q4_K), l);
  ASSERT_TRUE(p.host_error);
  EXPECT_NE(p.host_error->find("nbytes_shared <= smpbo"), std::string::npos) << *p.host_error;
  EXPECT_TRUE(mmq_plan(moe(65536, 2048, 7168, QuantType::q4_K), l).host_error);
}

TEST(LlamacppMmqPlan, KbcAssertionBoundsTilesTimesBlocks) {
  // Dense, q4_0, 7168 columns = 224 blocks, 8192 vectors (64 column tiles of J 128). Rows 2^21:
  // 16384 * 64 = 2^20 tiles x 224 = 234881024 < 2^30: runs. Rows 2^24: 2^23 tiles x 224 >= 2^30.
  MoeCallShape s;
  s.dense = true;
  s.tokens = 8192;
  s.cols = 7168;
  s.quant = QuantType::q4_0;
  s.rows = 1u << 21;
  EXPECT_FALSE(mmq_plan(s, h200()).host_error);
  s.rows = 1u << 24;
  const UpstreamCallPlan p = mmq_plan(s, h200());
  ASSERT_TRUE(p.host_error);
  EXPECT_NE(p.host_error->find("mmq.cuh:1454"), std::string::npos) << *p.host_error;
}

TEST(LlamacppMmqPlan, KbcGuardWrapsIn32BitsAndTheIndexModelSaysSo) {
  // 4096 experts of 2048 x 7168 q4_0 at 40000 tokens: 16 * 313 * 4096 tiles x 224 blocks =
  // 4594860032 >= 2^32: the guard's product wraps to 299892736 < 2^30 and passes; the kernel's
  // k-block total wraps the same way (uint32), which the index model flags.
  const UpstreamCallPlan p = mmq_plan(moe(40000, 2048, 7168, QuantType::q4_0, Projection::gate_up, 4096), h200());
  ASSERT_FALSE(p.host_error);
  ASSERT_EQ(p.indices.size(), 3u);
  EXPECT_EQ(p.indices[0].max_value, static_cast<u128>(16ull * 313 * 4096 * 224));
  EXPECT_FALSE(check_index(p.indices[0]).safe);
  // 30000 tokens: 16 * 235 * 4096 * 224 = 3449815040 < 2^32 but >= 2^30: the guard fires.
  EXPECT_TRUE(mmq_plan(moe(30000, 2048, 7168, QuantType::q4_0, Projection::gate_up, 4096), h200()).host_error);
}

TEST(LlamacppMmqPlan, DownProjectionOutputIndexOverflowsInt32FromDeepSeekSizedBatches) {
  // DeepSeek-V3 down: 7168 rows, top_k 8: pairs * rows - 1 >= 2^31 from 37450 tokens on
  // (2^31 / (7168 * 8) = 37449.1); the gate/up projection (2048 rows) stays below it up to the
  // helper's 58112-token bound.
  auto dst_index = [](const UpstreamCallPlan& p) { return p.indices[1]; };
  const UpstreamCallPlan below = mmq_plan(moe(37449, 7168, 2048, QuantType::q4_K, Projection::down), h200());
  const UpstreamCallPlan above = mmq_plan(moe(37450, 7168, 2048, QuantType::q4_K, Projection::down), h200());
  ASSERT_FALSE(below.host_error);
  ASSERT_FALSE(above.host_error);
  EXPECT_TRUE(check_index(dst_index(below)).safe);
  EXPECT_FALSE(check_index(dst_index(above)).safe);
  EXPECT_EQ(dst_index(above).max_value, static_cast<u128>(37450ull * 8 * 7168 - 1));
  EXPECT_TRUE(check_index(dst_index(mmq_plan(moe(58112, 2048, 7168, QuantType::q4_K), h200()))).safe);
}

}  // namespace
}  // namespace gridfuzz::llamacpp
