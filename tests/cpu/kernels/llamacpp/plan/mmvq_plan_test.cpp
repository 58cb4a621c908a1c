// ggml_cuda_mul_mat_vec_q's dispatch and geometry (mmvq.cu), as kernels/llamacpp/plan reproduces
// it for an H200 (sm_90 preset): every expected value below is upstream's formula written out
// with its citation, evaluated for the shape of the test.
#include <gtest/gtest.h>

#include "gridfuzz/device/plan_vs_recorded.hpp"
#include "gridfuzz/llamacpp/register.hpp"
#include "gridfuzz/predictor.hpp"
#include "gridfuzz/registry.hpp"
#include "plan/upstream_call_plan.hpp"

namespace gridfuzz::llamacpp {
namespace {

using gguf::MoeCallShape;
using gguf::Projection;
using gguf::QuantType;

DeviceLimits h200() { return *device_preset("sm_90"); }

MoeCallShape moe(std::uint64_t tokens, std::uint64_t rows, std::uint64_t cols, QuantType q,
                 Projection proj = Projection::gate_up) {
  MoeCallShape s;
  s.tokens = tokens;
  s.top_k = 8;
  s.experts = 256;
  s.rows = rows;
  s.cols = cols;
  s.quant = q;
  s.proj = proj;
  return s;
}

TEST(LlamacppMmvqPlan, MoreThanEightTokensWithIdsIsUpstreamsAssertion) {
  const UpstreamCallPlan p = mmvq_plan(moe(9, 2048, 7168, QuantType::q4_0), h200());
  ASSERT_TRUE(p.host_error);
  EXPECT_NE(p.host_error->find("ne12 <= MMVQ_MAX_BATCH_SIZE"), std::string::npos);
  EXPECT_TRUE(p.launches.empty());
  EXPECT_FALSE(mmvq_plan(moe(8, 2048, 7168, QuantType::q4_0), h200()).host_error);
}

TEST(LlamacppMmvqPlan, OneTokenUsesMulMatVecQOverTheSlots) {
  // DeepSeek-V3 gate/up: hidden 7168, expert intermediate 2048, top_k 8.
  const UpstreamCallPlan p = mmvq_plan(moe(1, 2048, 7168, QuantType::q4_0), h200());
  ASSERT_EQ(p.launches.size(), 2u);
  // quantize.cu:567-569: grid (ceil(GGML_PAD(7168, 512) / 256), ne11 = 1, ne12 = 1 token).
  EXPECT_EQ(p.launches[0].name, "quantize_q8_1");
  EXPECT_EQ(p.launches[0].grid, (Dim3{(7168 + 255) / 256, 1, 1}));
  EXPECT_EQ(p.launches[0].block, (Dim3{256, 1, 1}));
  // q4_0: 224 blocks per row >= nwarps 4 * (vdr 2 * 32 / qi 4) = 64: not small_k, 1 row per block.
  EXPECT_EQ(p.launches[1].name, "mul_mat_vec_q");
  EXPECT_EQ(p.launches[1].grid, (Dim3{2048, 8, 1}));
  EXPECT_EQ(p.launches[1].block, (Dim3{32, 4, 1}));
}

TEST(LlamacppMmvqPlan, SmallKPutsNwarpsRowsInABlock) {
  // q4_0 at 1024 columns: 32 blocks < 64: small_k, rows per block = nwarps = 4 (mmvq.cu:579-585).
  const UpstreamCallPlan p = mmvq_plan(moe(1, 2048, 1024, QuantType::q4_0), h200());
  EXPECT_EQ(p.launches[1].grid, (Dim3{2048 / 4, 8, 1}));
  // iq4_xs: blocks_per_iter_1warp = vdr 4 * 32 / qi 32 = 4; 7168/256 = 28 blocks < 16? no -> 1 row.
  EXPECT_EQ(mmvq_plan(moe(1, 2048, 7168, QuantType::iq4_xs), h200()).launches[1].grid, (Dim3{2048, 8, 1}));
  // iq4_xs at 2048 columns: 8 blocks < 16: small_k.
  EXPECT_EQ(mmvq_plan(moe(1, 2048, 2048, QuantType::iq4_xs), h200()).launches[1].grid, (Dim3{512, 8, 1}));
  // q6_K: vdr 1: 1 block per warp iteration; 768/256 = 3 blocks < 4: small_k; 1024/256 = 4: not.
  EXPECT_EQ(mmvq_plan(moe(1, 100, 768, QuantType::q6_K), h200()).launches[1].grid, (Dim3{25, 8, 1}));
  EXPECT_EQ(mmvq_plan(moe(1, 100, 1024, QuantType::q6_K), h200()).launches[1].grid, (Dim3{100, 8, 1}));
}

TEST(LlamacppMmvqPlan, SeveralTokensWithIdsUseTheMoeKernel) {
  // Down projection (DeepSeek-V3: 2048 -> 7168), 5 tokens: src1 has top_k rows per token.
  const UpstreamCallPlan p = mmvq_plan(moe(5, 7168, 2048, QuantType::q8_0, Projection::down), h200());
  ASSERT_EQ(p.launches.size(), 2u);
  EXPECT_EQ(p.launches[0].grid, (Dim3{2048 / 256, 8, 5}));  // ne11 = top_k, ne12 = tokens
  // mmvq.cu:1051-1055: 2 rows per block, grid (ceil(rows/2), nchannels_dst = top_k), block (32, tokens).
  EXPECT_EQ(p.launches[1].name, "mul_mat_vec_q_moe");
  EXPECT_EQ(p.launches[1].grid, (Dim3{3584, 8, 1}));
  EXPECT_EQ(p.launches[1].block, (Dim3{32, 5, 1}));
  EXPECT_EQ(mmvq_plan(moe(5, 7167, 2048, QuantType::q8_0), h200()).launches[1].grid.x, 3584u);
}

TEST(LlamacppMmvqPlan, DenseVectorsPickNwarpsAndAssertPastEight) {
  MoeCallShape s;
  s.dense = true;
  s.rows = 4096;
  s.cols = 4096;
  s.quant = QuantType::q4_K;
  for (std::uint64_t n = 2; n <= 8; ++n) {
    s.tokens = n;
    const UpstreamCallPlan p = mmvq_plan(s, h200());
    ASSERT_FALSE(p.host_error) << n;
    EXPECT_EQ(p.launches[0].grid, (Dim3{4096 / 256, n, 1}));
    // calc_nwarps GENERIC: 4 up to 4 columns, then 2; 2 rows per block (mmvq.cu:453-467, 579-597).
    EXPECT_EQ(p.launches[1].block, (Dim3{32, n <= 4 ? 4u : 2u, 1})) << n;
    EXPECT_EQ(p.launches[1].grid, (Dim3{2048, 1, 1})) << n;
  }
  s.tokens = 9;
  const UpstreamCallPlan p = mmvq_plan(s, h200());
  ASSERT_TRUE(p.host_error);
  EXPECT_NE(p.host_error->find("mmvq.cu:1086"), std::string::npos);
}

// The weight block index kbx_offset + i*stride_row_x + kbx (mmvq.cu:713/746, moe :911/923): an
// int made of uint32 products, so it wraps once the bank holds 2^31 blocks up to the last row
// block's end. Every expected value is experts x rows x blocks per row - 1.
IndexRange weight_block(const UpstreamCallPlan& p) {
  for (const IndexRange& r : p.indices)
    if (r.name.rfind("weight block", 0) == 0) return r;
  ADD_FAILURE() << "no weight block index";
  return {};
}

Prediction predicted(const UpstreamCallPlan& p) {
  LaunchPlan plan;
  plan.launches = p.launches;
  plan.host_error = p.host_error;
  plan.indices = p.indices;
  return predict(plan, h200());
}

TEST(LlamacppMmvqPlan, WeightBlockIndexOfDeepSeekV3FitsFarBelowInt) {
  for (const std::uint64_t tokens : {1u, 2u, 8u}) {  // mul_mat_vec_q with ids (1 token), the moe kernel (2-8)
    const UpstreamCallPlan p = mmvq_plan(moe(tokens, 2048, 7168, QuantType::q4_0), h200());
    const IndexRange r = weight_block(p);
    EXPECT_EQ(r.max_value, u128{256} * 2048 * (7168 / 32) - 1) << tokens;
    EXPECT_EQ(r.type, IndexType::int32);
    EXPECT_NE(r.name.find(tokens == 1 ? "mmvq.cu:713" : "mmvq.cu:911"), std::string::npos) << r.name;
    EXPECT_EQ(predicted(p).index_wrap(), "safe");
  }
}

TEST(LlamacppMmvqPlan, WeightBlockIndexWrapsAtTwoTo31BlocksOfTheBank) {
  // 4096 experts of 2048 x 8192 q4_0: 4096 * 2048 * 256 = 2^31 blocks, the last one 2^31 - 1: fits.
  for (const std::uint64_t tokens : {1u, 2u}) {
    MoeCallShape s = moe(tokens, 2048, 8192, QuantType::q4_0);
    s.experts = 4096;
    EXPECT_EQ(weight_block(mmvq_plan(s, h200())).max_value, (u128{1} << 31) - 1);
    EXPECT_EQ(predicted(mmvq_plan(s, h200())).index_wrap(), "safe");
    s.cols = 8224;  // one more q4_0 block per row: past 2^31, the index reads before the bank
    const UpstreamCallPlan p = mmvq_plan(s, h200());
    EXPECT_EQ(weight_block(p).max_value, u128{4096} * 2048 * 257 - 1);
    EXPECT_EQ(predicted(p).index_wrap().rfind("wrap:weight block", 0), 0u) << predicted(p).index_wrap();
  }
  // K-quants hold 256 values a block: the same bank in q4_K is 8 times further from the bound.
  MoeCallShape k = moe(2, 2048, 8192, QuantType::q4_K);
  k.experts = 4096;
  EXPECT_EQ(weight_block(mmvq_plan(k, h200())).max_value, u128{4096} * 2048 * 32 - 1);
}

TEST(LlamacppMmvqPlan, WeightBlockIndexCountsTheRowsTheLastRowBlockReads) {
  // The moe kernel reads c_rows_per_block = 2 rows from row0 without a row check (mmvq.cu:921-923),
  // so 2047 rows read up to row 2047: the index runs to the end of a 2048-row block.
  const UpstreamCallPlan p = mmvq_plan(moe(2, 2047, 7168, QuantType::q4_0), h200());
  EXPECT_EQ(weight_block(p).max_value, u128{255} * 2047 * 224 + u128{2048} * 224 - 1);
}

TEST(LlamacppMmvqPlan, TypesOutsideTheBuildAreRefused) {
  EXPECT_THROW(type_constants(QuantType::q5_K), std::invalid_argument);
  EXPECT_EQ(llamacpp_quant_types().size(), 5u);
}

// The kernel's plan replayed as the launches the recorder would see for it: the comparison the
// runner makes agrees; a recording that differs is caught.
TEST(LlamacppMmvqKernel, PlanReplayedAsRecordedLaunchesAgrees) {
  Registry registry;
  register_kernels(registry);
  const auto k = registry.find("llamacpp.mmvq");
  ASSERT_TRUE(k);
  Params p = Params::defaults(k->axes());
  p.set("tokens", "3");
  ASSERT_EQ(k->check(p), std::nullopt);
  const LaunchPlan plan = k->plan(p, "upstream", h200());
  ASSERT_EQ(plan.launches.size(), 2u);
  std::vector<device::LaunchRecord> seen;
  for (const LaunchSpec& s : plan.launches) {
    device::LaunchRecord r;
    r.spec = s;
    seen.push_back(r);
  }
  EXPECT_EQ(device::plan_recorded_difference(plan, seen), std::nullopt);
  seen[1].spec.block.y = 4;  // what the single-token kernel would use
  EXPECT_TRUE(device::plan_recorded_difference(plan, seen));
}

TEST(LlamacppMmvqKernel, SplitPiecesCoverEveryTokenOnce) {
  Registry registry;
  register_kernels(registry);
  const auto k = registry.find("llamacpp.mmvq");
  for (std::uint64_t tokens = 1; tokens <= 8; ++tokens) {
    Params p = Params::defaults(k->axes());
    p.set("tokens", std::to_string(tokens));
    std::uint64_t next = 0;
    for (const SplitPiece& piece : k->bind(p, "upstream")->split(h200())) {
      EXPECT_EQ(piece.begin, next);
      EXPECT_GT(piece.end, piece.begin);
      // Pieces of 1 token would run the other kernel (not bit-exact): at least 2 unless the call has 1.
      if (tokens > 1) {
        EXPECT_GE(piece.end - piece.begin, std::min<std::uint64_t>(tokens, 2));
      }
      next = piece.end;
    }
    EXPECT_EQ(next, tokens);
  }
}

TEST(LlamacppMmqKernel, SplitPiecesCoverEveryTokenOnceInPiecesOf4000) {
  Registry registry;
  register_kernels(registry);
  const auto k = registry.find("llamacpp.mmq");
  ASSERT_TRUE(k);
  for (std::uint64_t tokens : {1ull, 3999ull, 4000ull, 4001ull, 58112ull}) {
    Params p = Params::defaults(k->axes());
    p.set("tokens", std::to_string(tokens));
    std::uint64_t next = 0;
    for (const SplitPiece& piece : k->bind(p, "upstream")->split(h200())) {
      EXPECT_EQ(piece.begin, next);
      EXPECT_GT(piece.end, piece.begin);
      EXPECT_LE(piece.end - piece.begin, 4000u);
      next = piece.end;
    }
    EXPECT_EQ(next, tokens);
  }
}

}  // namespace
}  // namespace gridfuzz::llamacpp
