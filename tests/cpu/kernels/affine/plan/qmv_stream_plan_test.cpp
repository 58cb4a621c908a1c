// qmv_stream, the M < 8 path of affine.qmm's "hopper" variant, host side: which calls take it,
// the geometry its plan declares (block (32, 8), grid.x = min(ceil(n/8), SMs x blocks per SM),
// grid.y = the chunk's tokens, the activation row's whole tiles of shared memory plus the warps'
// rings, as many blocks per SM as that shared memory allows), and that its
// launches are the fixed plan's qmv launches in all else (chunks, 32/64-bit choice, index ranges).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "gridfuzz/affine/hopper_plan.hpp"
#include "gridfuzz/affine/qmv_stream_plan.hpp"
#include "plan_test_support.hpp"

namespace gridfuzz::affine {
namespace {

using test::dense;

// Every launch of `stream` is the fixed plan's launch with qmv_stream's grid.x and shared memory.
void expect_fixed_but_geometry(const MatmulShape& s, const DeviceLimits& lim, const AffinePlan& stream,
                               std::uint64_t blocks_per_sm) {
  const AffinePlan fixed = plan_matmul(s, Variant::fixed, lim);
  ASSERT_EQ(fixed.path, MatmulPath::qmv);
  ASSERT_EQ(stream.launches.size(), fixed.launches.size());
  ASSERT_EQ(stream.plan.launches.size(), fixed.plan.launches.size());
  const std::uint64_t smem = ((s.k + 4095) / 4096) * 8704 + 49152;
  // The SM's shared memory (opt-in limit + 1 KiB) over each block's (+ 1 KiB), at most blocks_per_sm.
  const std::uint64_t sm_fit = (lim.smem_per_block_optin + 1024) / (smem + 1024);
  const std::uint64_t fit = std::max<std::uint64_t>(1, std::min(blocks_per_sm, sm_fit));
  for (std::size_t i = 0; i < fixed.launches.size(); ++i) {
    const AffineLaunch& a = stream.launches[i];
    const AffineLaunch& f = fixed.launches[i];
    EXPECT_TRUE(a.stream);
    EXPECT_EQ(a.wide_index, f.wide_index);
    EXPECT_EQ(a.row_begin, f.row_begin);
    EXPECT_EQ(a.m, f.m);
    EXPECT_EQ(a.spec.name, f.wide_index ? "qmv_stream_int64" : "qmv_stream_int32");
    EXPECT_EQ(a.spec.block, (Dim3{32, 8, 1}));
    EXPECT_EQ(a.spec.grid, (Dim3{std::min((s.n + 7) / 8, lim.sm_count * fit), f.spec.grid.y, 1}));
    EXPECT_EQ(a.spec.dynamic_smem_bytes, smem);
    EXPECT_EQ(a.spec.smem_optin, smem > 48000);
    EXPECT_EQ(describe(stream.plan.launches[i]), describe(a.spec));
  }
  ASSERT_EQ(stream.plan.indices.size(), fixed.plan.indices.size());
  for (std::size_t i = 0; i < fixed.plan.indices.size(); ++i) {
    EXPECT_EQ(stream.plan.indices[i].name, fixed.plan.indices[i].name);
    EXPECT_TRUE(stream.plan.indices[i].max_value == fixed.plan.indices[i].max_value);
    EXPECT_EQ(stream.plan.indices[i].type, fixed.plan.indices[i].type);
  }
}

TEST(QmvStreamPlan, LmHeadAtOneTokenIsOnePersistentLaunch) {
  const DeviceLimits sm90 = test::sm90();
  const MatmulShape s = dense(1, 128256, 4096);
  const HopperPlan h = plan_hopper(s, sm90, true);
  ASSERT_TRUE(h.stream_qmv) << h.why_not;
  EXPECT_FALSE(h.hopper);
  ASSERT_EQ(h.plan.launches.size(), 1u);
  const LaunchSpec& l = h.plan.launches[0];
  EXPECT_EQ(l.name, "qmv_stream_int32");
  EXPECT_EQ(l.grid, (Dim3{sm90.sm_count * kQmvStreamBlocksPerSm, 1, 1}));
  EXPECT_EQ(l.dynamic_smem_bytes, 8704u + 49152u);  // three such blocks fit an H200 SM's 228 KiB
  EXPECT_TRUE(l.smem_optin);
  EXPECT_TRUE(predict(h.plan, sm90).accepted());
  expect_fixed_but_geometry(s, sm90, plan_qmv_stream(s, sm90), kQmvStreamBlocksPerSm);
}

TEST(QmvStreamPlan, SmallNTakesOneBlockPerEightRowsAndTokensOnGridY) {
  const DeviceLimits sm90 = test::sm90();
  const MatmulShape s = dense(7, 384, 2816, 32, Dtype::float16);
  const AffinePlan p = plan_qmv_stream(s, sm90);
  ASSERT_EQ(p.plan.launches.size(), 1u);
  EXPECT_EQ(p.plan.launches[0].grid, (Dim3{48, 7, 1}));
  EXPECT_EQ(p.plan.launches[0].dynamic_smem_bytes, 8704u + 49152u);  // one partial tile takes a whole one
  expect_fixed_but_geometry(s, sm90, p, kQmvStreamBlocksPerSm);
  expect_fixed_but_geometry(s, sm90, plan_qmv_stream(s, sm90, 1), 1);
}

TEST(QmvStreamPlan, LongRowsOptIntoSharedMemoryAndTooLongOnesAreIneligible) {
  const DeviceLimits sm90 = test::sm90();
  const AffinePlan p = plan_qmv_stream(dense(2, 4096, 28672), sm90);  // 7 tiles: 60928 bytes + the rings
  EXPECT_EQ(p.plan.launches[0].dynamic_smem_bytes, 60928u + 49152u);
  EXPECT_TRUE(p.plan.launches[0].smem_optin);
  EXPECT_EQ(p.plan.launches[0].grid.x, sm90.sm_count * 2);  // 110080 bytes: two blocks fit an SM
  EXPECT_TRUE(predict(p.plan, sm90).accepted());
  expect_fixed_but_geometry(dense(2, 4096, 28672), sm90, p, kQmvStreamBlocksPerSm);
  EXPECT_EQ(qmv_stream_resident_blocks(8192, sm90, 3), 3u);   // 17408 + 49152 bytes
  EXPECT_EQ(qmv_stream_resident_blocks(16384, sm90, 3), 2u);  // 34816 + 49152 bytes
  EXPECT_EQ(qmv_stream_resident_blocks(73728, sm90, 3), 1u);  // 156672 + 49152 bytes
  EXPECT_EQ(qmv_stream_resident_blocks(4096, sm90, 3), 3u);
  EXPECT_EQ(qmv_stream_resident_blocks(4096, sm90, 1), 1u);
  const std::uint64_t too_long = ((sm90.smem_per_block_optin - 49152) / 8704 + 1) * 4096;
  const auto why = qmv_stream_ineligible(dense(1, 4096, too_long), sm90);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("shared memory"), std::string::npos) << *why;
  EXPECT_FALSE(plan_hopper(dense(1, 4096, too_long), sm90, true).stream_qmv);
  EXPECT_THROW(plan_qmv_stream(dense(1, 4096, too_long), sm90), std::invalid_argument);
}

TEST(QmvStreamPlan, OtherCallsDoNotTakeIt) {
  const DeviceLimits sm90 = test::sm90();
  struct Case {
    MatmulShape shape;
    const char* why;
  };
  MatmulShape gather = dense(1, 768, 2048);
  gather.gather = true;
  gather.batches = 4;
  gather.experts = 8;
  const Case cases[] = {
      {dense(1, 4096, 4096, 64, Dtype::bfloat16, 8), "bits"},
      {dense(8, 4096, 4096), "qmm"},
      {gather, "gather"},
  };
  for (const Case& c : cases) {
    const auto why = qmv_stream_ineligible(c.shape, sm90);
    ASSERT_TRUE(why) << c.why;
    EXPECT_NE(why->find(c.why), std::string::npos) << *why;
  }
  // 8-bit at one token: the hopper variant runs the fixed qmv plan.
  const MatmulShape eight = dense(1, 4096, 4096, 64, Dtype::bfloat16, 8);
  const HopperPlan h = plan_hopper(eight, sm90, true);
  EXPECT_FALSE(h.stream_qmv || h.hopper);
  EXPECT_EQ(describe(h.plan.launches.at(0)), describe(plan_matmul(eight, Variant::fixed, sm90).plan.launches.at(0)));
  // Not tied to sm_90: a plain CUDA kernel, but its cp.async needs sm_80 or newer. (3 tokens with
  // rows of 4096 take qmm_small; of 4160, not a multiple of 256, qmv_stream.)
  EXPECT_TRUE(plan_hopper(dense(3, 4096, 4160), *device_preset("sm_80"), false).stream_qmv);
  EXPECT_TRUE(plan_hopper(dense(3, 4096, 4096), *device_preset("sm_80"), false).small_qmm);
  const DeviceLimits sm75 = *device_preset("sm_75");
  const auto why75 = qmv_stream_ineligible(dense(3, 4096, 4096), sm75);
  ASSERT_TRUE(why75);
  EXPECT_NE(why75->find("sm_80"), std::string::npos) << *why75;
  const HopperPlan h75 = plan_hopper(dense(3, 4096, 4096), sm75, false);
  EXPECT_FALSE(h75.stream_qmv || h75.hopper);
}

TEST(QmvStreamPlan, RowsPastInt32RunTheWideKernelOneTokenPerLaunch) {
  const DeviceLimits sm90 = test::sm90();
  const MatmulShape s = dense(7, 3'000'000'000ull, 64);  // n > INT32_MAX: the fixed plan's one row per chunk
  const AffinePlan p = plan_qmv_stream(s, sm90);
  ASSERT_EQ(p.launches.size(), 7u);
  for (const AffineLaunch& a : p.launches) {
    EXPECT_TRUE(a.wide_index);
    EXPECT_EQ(a.spec.grid, (Dim3{sm90.sm_count * kQmvStreamBlocksPerSm, 1, 1}));
  }
  expect_fixed_but_geometry(s, sm90, p, kQmvStreamBlocksPerSm);
  EXPECT_EQ(predict(p.plan, sm90).index_wrap(), "safe");
}

TEST(QmvStreamPlan, VariantPlanOfTheAdapterIsIt) {
  const Params p = test::dense_params(3, 14336, 4160);  // rows not a multiple of 256: not qmm_small's
  const LaunchPlan plan = test::dense_kernel().plan(p, "hopper", test::sm90());
  const AffinePlan stream = plan_qmv_stream(test::shape_of(test::dense_kernel(), p), test::sm90());
  ASSERT_EQ(plan.launches.size(), stream.plan.launches.size());
  EXPECT_EQ(describe(plan.launches[0]), describe(stream.plan.launches[0]));
  // The split reference takes one token per piece.
  const auto bound = test::dense_kernel().bind(p, "hopper");
  const auto pieces = bound->split(test::sm90());
  ASSERT_EQ(pieces.size(), 3u);
  for (std::uint64_t r = 0; r < 3; ++r) EXPECT_TRUE(pieces[r].begin == r && pieces[r].end == r + 1);
}

// Anywhere in the dense axes' range below 8 tokens with 4-bit weights that qmm_small does not take
// (1 token, or rows that are an odd multiple of 128): qmv_stream, accepted, no index wraps, the
// fixed plan's launches with qmv_stream's geometry.
RC_GTEST_PROP(QmvStreamPlan, AcceptedSafeAndFixedButGeometry, ()) {
  const std::uint64_t tokens = *rc::gen::inRange<std::uint64_t>(1, 8);
  const std::uint64_t vocab = *rc::gen::inRange<std::uint64_t>(1, (1u << 22) + 1);
  const int group = *rc::gen::element(32, 64, 128);
  const std::uint64_t cols = tokens == 1 ? *rc::gen::inRange<std::uint64_t>(1, (1u << 14) / 128 + 1) * 128
                                         : (*rc::gen::inRange<std::uint64_t>(0, (1u << 14) / 256) * 2 + 1) * 128;
  const MatmulShape s = dense(tokens, vocab, cols, group);
  const HopperPlan h = plan_hopper(s, test::sm90(), true);
  RC_ASSERT(h.stream_qmv);
  const Prediction pred = predict(h.plan, test::sm90());
  RC_ASSERT(pred.outcome == "accept");
  RC_ASSERT(pred.index_wrap() == "safe");
  const AffinePlan fixed = plan_matmul(s, Variant::fixed, test::sm90());
  RC_ASSERT(h.launches.size() == fixed.launches.size());
  for (std::size_t i = 0; i < h.launches.size(); ++i) {
    const Dim3 g = h.launches[i].spec.grid;
    const std::uint64_t smem = ((cols + 4095) / 4096) * 8704 + 49152;
    const std::uint64_t sm_fit = (test::sm90().smem_per_block_optin + 1024) / (smem + 1024);
    const std::uint64_t fit = std::min<std::uint64_t>(kQmvStreamBlocksPerSm, sm_fit);
    RC_ASSERT(g.x == std::min((vocab + 7) / 8, test::sm90().sm_count * fit));
    RC_ASSERT(g.y == fixed.launches[i].spec.grid.y && g.z == 1u);
    RC_ASSERT(h.launches[i].wide_index == fixed.launches[i].wide_index);
  }
}

}  // namespace
}  // namespace gridfuzz::affine
