// qmm_small, the 2-64 token path of affine.qmm's "hopper" variant, host side: which calls take it
// (and the crossovers with qmv_stream at 1 token and the GEMM paths above 64), the launch its plan
// declares (K in 4 parts of a 512-element chunk up to 16 tokens when K allows, else 2 of 256; grid
// n/(128/parts), block 256, 4 stages of 8192 + 2048 + 256 * parts * tokens bytes, the token tile
// rounded up to 8, 16, 32 or 64), the offsets it forms and their 32/64-bit choice, and that the
// adapter plans and splits what the launcher runs (the split reference with the call's parts).
// Pure host code.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "gridfuzz/affine/hopper_plan.hpp"
#include "gridfuzz/affine/qmm_small_plan.hpp"
#include "plan_test_support.hpp"

namespace gridfuzz::affine {
namespace {

using test::dense;

const IndexRange& range(const LaunchPlan& p, const std::string& name) {
  for (const IndexRange& r : p.indices)
    if (r.name == name) return r;
  throw std::runtime_error("no index range " + name);
}

TEST(QmmSmallPlan, TokenTilesRoundUpToTheCompiledOnes) {
  EXPECT_EQ(qmm_small_token_tiles(0), 0);
  for (std::uint64_t m = 1; m <= 8; ++m) EXPECT_EQ(qmm_small_token_tiles(m), 1) << m;
  for (std::uint64_t m = 9; m <= 16; ++m) EXPECT_EQ(qmm_small_token_tiles(m), 2) << m;
  for (std::uint64_t m = 17; m <= 32; ++m) EXPECT_EQ(qmm_small_token_tiles(m), 4) << m;
  for (std::uint64_t m = 33; m <= 64; ++m) EXPECT_EQ(qmm_small_token_tiles(m), 8) << m;
  EXPECT_EQ(qmm_small_token_tiles(65), 0);
  // 4 parts up to 16 tokens where K is a multiple of 512; else 2.
  EXPECT_EQ(qmm_small_k_parts(4096, 1), 4);
  EXPECT_EQ(qmm_small_k_parts(4096, 2), 4);
  EXPECT_EQ(qmm_small_k_parts(4096, 4), 2);
  EXPECT_EQ(qmm_small_k_parts(4096, 8), 2);
  EXPECT_EQ(qmm_small_k_parts(4352, 1), 2);  // 17 x 256
  EXPECT_EQ(qmm_small_rows_per_block(4), 32u);
  EXPECT_EQ(qmm_small_rows_per_block(2), 64u);
  EXPECT_EQ(qmm_small_chunk_k(4), 512u);
  // 4 stages x (8192 weights + 2048 scales and biases + 2 bytes x chunk per token).
  EXPECT_EQ(qmm_small_smem_bytes(1, 2), 4u * (8192 + 2048 + 8 * 512));
  EXPECT_EQ(qmm_small_smem_bytes(1, 4), 73728u);
  EXPECT_EQ(qmm_small_smem_bytes(2, 4), 106496u);
  EXPECT_EQ(qmm_small_smem_bytes(4, 4), 172032u);
  EXPECT_EQ(qmm_small_smem_bytes(8, 2), 172032u);
}

TEST(QmmSmallPlan, LmHeadAtSixteenTokensIsOneLaunchOverEveryRow) {
  const DeviceLimits sm90 = test::sm90();
  const MatmulShape s = dense(16, 128256, 4096);
  const HopperPlan h = plan_hopper(s, sm90, true);
  ASSERT_TRUE(h.small_qmm) << h.why_not;
  EXPECT_FALSE(h.stream_qmv || h.hopper);
  ASSERT_EQ(h.plan.launches.size(), 1u);
  ASSERT_EQ(h.launches.size(), 1u);
  const LaunchSpec& l = h.plan.launches[0];
  EXPECT_EQ(l.name, "qmm_small_int32");
  EXPECT_EQ(l.grid, (Dim3{4008, 1, 1}));  // 128256 / 32: 4 K parts
  EXPECT_EQ(l.block, (Dim3{256, 1, 1}));
  EXPECT_EQ(l.dynamic_smem_bytes, 106496u);
  EXPECT_TRUE(l.smem_optin);
  const AffineLaunch& a = h.launches[0];
  EXPECT_TRUE(a.small);
  EXPECT_EQ(a.path, MatmulPath::qmm);
  EXPECT_EQ(a.token_tiles, 2);
  EXPECT_EQ(a.k_parts, 4);
  EXPECT_EQ(a.m, 16);
  EXPECT_EQ(a.row_begin, 0u);
  EXPECT_EQ(describe(a.spec), describe(l));
  // The four offsets the kernel forms, all int32 here.
  EXPECT_TRUE(range(h.plan, "out_offset").max_value == u128{16} * 128256 - 1);
  EXPECT_TRUE(range(h.plan, "x_offset").max_value == u128{16} * 4096 - 1);
  EXPECT_TRUE(range(h.plan, "w_offset").max_value == u128{128256} * 512 - 1);
  EXPECT_TRUE(range(h.plan, "scale_offset").max_value == u128{128256} * 64 - 1);
  for (const IndexRange& r : h.plan.indices) EXPECT_EQ(r.type, IndexType::int32) << r.name;
  const Prediction pred = predict(h.plan, sm90);
  EXPECT_TRUE(pred.accepted());
  EXPECT_EQ(pred.index_wrap(), "safe");
}

TEST(QmmSmallPlan, IssueShapeTakesItFromTwoToSixtyFourTokens) {
  const DeviceLimits sm90 = test::sm90();
  struct Expected {
    std::uint64_t tokens;
    int tiles, parts;
    std::uint64_t blocks;
  };
  const Expected expected[] = {{2, 1, 4, 448}, {8, 1, 4, 448},  {9, 2, 4, 448}, {16, 2, 4, 448},
                               {17, 4, 2, 224}, {33, 8, 2, 224}, {64, 8, 2, 224}};
  for (const auto& [tokens, tiles, parts, blocks] : expected) {
    const HopperPlan h = plan_hopper(dense(tokens, 14336, 4096), sm90, true);
    ASSERT_TRUE(h.small_qmm) << tokens << ": " << h.why_not;
    ASSERT_EQ(h.launches.size(), 1u);
    EXPECT_EQ(h.launches[0].token_tiles, tiles) << tokens;
    EXPECT_EQ(h.launches[0].k_parts, parts) << tokens;
    EXPECT_EQ(h.plan.launches[0].grid, (Dim3{blocks, 1, 1})) << tokens;
    EXPECT_EQ(h.plan.launches[0].dynamic_smem_bytes, qmm_small_smem_bytes(tiles, parts));
    EXPECT_TRUE(predict(h.plan, sm90).accepted()) << tokens;
  }
}

TEST(QmmSmallPlan, CrossoversOneTokenStaysOnQmvStreamAndSixtyFiveGoesToTheGemm) {
  const DeviceLimits sm90 = test::sm90();
  const HopperPlan one = plan_hopper(dense(1, 14336, 4096), sm90, true);
  EXPECT_TRUE(one.stream_qmv);
  EXPECT_FALSE(one.small_qmm);
  // The kernel itself runs one token (the split reference's pieces); the variant does not route it there.
  EXPECT_FALSE(qmm_small_ineligible(dense(1, 14336, 4096), sm90));
  const HopperPlan big = plan_hopper(dense(65, 14336, 4096), sm90, true);
  EXPECT_FALSE(big.small_qmm || big.stream_qmv);
  EXPECT_TRUE(big.hopper) << big.why_not;
  // Without the CUTLASS kernel, 65 tokens run the fixed plan.
  const HopperPlan unbuilt = plan_hopper(dense(65, 14336, 4096), sm90, false);
  EXPECT_FALSE(unbuilt.small_qmm || unbuilt.hopper);
  EXPECT_EQ(describe(unbuilt.plan.launches.at(0)),
            describe(plan_matmul(dense(65, 14336, 4096), Variant::fixed, sm90).plan.launches.at(0)));
  // Not tied to sm_90 (sm_80 and newer), and not to bf16.
  EXPECT_TRUE(plan_hopper(dense(16, 14336, 4096), *device_preset("sm_80"), false).small_qmm);
  EXPECT_TRUE(plan_hopper(dense(16, 14336, 4096, 32, Dtype::float16), sm90, true).small_qmm);
}

TEST(QmmSmallPlan, OtherCallsDoNotTakeItAndSayWhy) {
  const DeviceLimits sm90 = test::sm90();
  MatmulShape gather = dense(1, 768, 2048);
  gather.gather = true;
  gather.batches = 16;
  gather.experts = 8;
  struct Case {
    MatmulShape shape;
    DeviceLimits limits;
    const char* why;
  };
  const Case cases[] = {
      {dense(16, 14336, 4096, 64, Dtype::bfloat16, 8), sm90, "bits"},
      {gather, sm90, "gather"},
      {dense(65, 14336, 4096), sm90, "64 tokens"},
      {dense(0, 14336, 4096), sm90, "no tokens"},
      {dense(16, 14336, 4160), sm90, "multiple of 256"},
      {dense(16, 14336 + 32, 4096), sm90, "multiple of 64"},
      {dense(16, 14336, 4096, 256), sm90, "group_size"},
      {dense(16, 14336, 4096), *device_preset("sm_75"), "sm_80"},
  };
  for (const Case& c : cases) {
    const auto why = qmm_small_ineligible(c.shape, c.limits);
    ASSERT_TRUE(why) << c.why;
    EXPECT_NE(why->find(c.why), std::string::npos) << *why;
    EXPECT_THROW(plan_qmm_small(c.shape, c.limits), std::invalid_argument) << c.why;
    EXPECT_FALSE(plan_hopper(c.shape, c.limits, true).small_qmm) << c.why;
  }
  // A device with too little opt-in shared memory for 64 tokens' pipeline (172032 bytes).
  DeviceLimits small_smem = sm90;
  small_smem.smem_per_block_optin = 172031;
  const auto why = qmm_small_ineligible(dense(64, 14336, 4096), small_smem);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("172032"), std::string::npos) << *why;
  EXPECT_FALSE(qmm_small_ineligible(dense(16, 14336, 4096), small_smem));  // 106496 bytes
  // Rows of 4160 at 3 tokens: qmv_stream, as before qmm_small.
  EXPECT_TRUE(plan_hopper(dense(3, 14336, 4160), sm90, true).stream_qmv);
}

TEST(QmmSmallPlan, WeightsPastInt32RunTheWideKernel) {
  const DeviceLimits sm90 = test::sm90();
  // 2^22 rows of 2^16 elements: w offsets up to 2^35, scales 2^32.
  const MatmulShape s = dense(64, 1u << 22, 1u << 16);
  const AffinePlan p = plan_qmm_small(s, sm90);
  ASSERT_EQ(p.launches.size(), 1u);
  EXPECT_TRUE(p.launches[0].wide_index);
  EXPECT_EQ(p.plan.launches[0].name, "qmm_small_int64");
  EXPECT_EQ(p.plan.launches[0].grid, (Dim3{1u << 16, 1, 1}));
  for (const IndexRange& r : p.plan.indices) EXPECT_EQ(r.type, IndexType::int64) << r.name;
  EXPECT_TRUE(range(p.plan, "w_offset").max_value == (u128{1} << 35) - 1);
  const Prediction pred = predict(p.plan, sm90);
  EXPECT_TRUE(pred.accepted());
  EXPECT_EQ(pred.index_wrap(), "safe");
  // The last int32 shape: w's last offset 2^31 - 1 (2^18 rows of 2^16 elements, 2^13 words each).
  EXPECT_FALSE(plan_qmm_small(dense(64, 1u << 18, 1u << 16), sm90).launches[0].wide_index);
  EXPECT_TRUE(plan_qmm_small(dense(64, (1u << 18) + 64, 1u << 16), sm90).launches[0].wide_index);
}

TEST(QmmSmallPlan, AdapterPlansAndSplitsWhatItLaunches) {
  const Params p = test::dense_params(16, 14336, 4096);
  const LaunchPlan plan = test::dense_kernel().plan(p, "hopper", test::sm90());
  const AffinePlan small = plan_qmm_small(test::shape_of(test::dense_kernel(), p), test::sm90());
  ASSERT_EQ(plan.launches.size(), 1u);
  EXPECT_EQ(describe(plan.launches[0]), describe(small.plan.launches[0]));
  // The split reference takes one token per piece, planned with the call's K parts: 64 tokens run 2
  // parts, and so does each of their one-token pieces (whose own rule would give 4).
  const auto bound = test::dense_kernel().bind(p, "hopper");
  const auto pieces = bound->split(test::sm90());
  ASSERT_EQ(pieces.size(), 16u);
  for (std::uint64_t r = 0; r < 16; ++r) EXPECT_TRUE(pieces[r].begin == r && pieces[r].end == r + 1) << r;
  const AffinePlan piece = plan_qmm_small(dense(1, 14336, 4096), test::sm90(), 2);
  EXPECT_EQ(piece.launches.at(0).k_parts, 2);
  EXPECT_EQ(piece.launches.at(0).token_tiles, 1);
  EXPECT_EQ(piece.plan.launches.at(0).grid, (Dim3{224, 1, 1}));
  EXPECT_EQ(piece.plan.launches.at(0).dynamic_smem_bytes, qmm_small_smem_bytes(1, 2));
  EXPECT_EQ(plan_qmm_small(dense(1, 14336, 4096), test::sm90()).launches.at(0).k_parts, 4);
  EXPECT_THROW(plan_qmm_small(dense(1, 14336, 4352), test::sm90(), 4), std::invalid_argument);
  EXPECT_THROW(plan_qmm_small(dense(1, 14336, 4096), test::sm90(), 3), std::invalid_argument);
  // The fixed variant keeps MLX's qmm_sm80 geometry.
  EXPECT_EQ(test::dense_kernel().plan(p, "fixed", test::sm90()).launches.at(0).name, "qmm_sm80_fixed_int32");
}

// Anywhere in the dense axes' range at 2-64 tokens with 4-bit weights, rows a multiple of 256 and
// 64 output columns: qmm_small, accepted, no index wraps, one launch over every row, its width the
// one the offsets need.
RC_GTEST_PROP(QmmSmallPlan, AcceptedSafeOneLaunchNarrowExactlyWhenItFits, ()) {
  const std::uint64_t tokens = *rc::gen::inRange<std::uint64_t>(2, 65);
  const std::uint64_t vocab = *rc::gen::inRange<std::uint64_t>(1, (1u << 22) / 64 + 1) * 64;
  const int group = *rc::gen::element(32, 64, 128);
  const std::uint64_t cols = *rc::gen::inRange<std::uint64_t>(1, (1u << 16) / 256 + 1) * 256;
  const MatmulShape s = dense(tokens, vocab, cols, group, *rc::gen::element(Dtype::bfloat16, Dtype::float16));
  const HopperPlan h = plan_hopper(s, test::sm90(), true);
  RC_ASSERT(h.small_qmm);
  const Prediction pred = predict(h.plan, test::sm90());
  RC_ASSERT(pred.outcome == "accept");
  RC_ASSERT(pred.index_wrap() == "safe");
  RC_ASSERT(h.launches.size() == 1u);
  const int tiles = qmm_small_token_tiles(tokens);
  const int parts = tiles <= 2 && cols % 512 == 0 ? 4 : 2;
  RC_ASSERT(h.launches[0].k_parts == parts);
  RC_ASSERT(h.launches[0].spec.grid == (Dim3{vocab / static_cast<std::uint64_t>(128 / parts), 1, 1}));
  const u128 limit = u128{1} << 31;
  const bool fits = u128{tokens} * vocab <= limit && u128{tokens} * cols <= limit && u128{vocab} * (cols / 8) <= limit &&
                    u128{vocab} * (cols / static_cast<std::uint64_t>(group)) <= limit;
  RC_ASSERT(h.launches[0].wide_index == !fits);
}

}  // namespace
}  // namespace gridfuzz::affine
