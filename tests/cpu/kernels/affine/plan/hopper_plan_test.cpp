// affine.qmm's "hopper" variant, host side: when the CUTLASS sm90 path is picked (8 or more tokens,
// device sm_90, 4-bit, bf16, group a multiple of 64) and the one launch it then declares (CUTLASS's persistent
// grid, 384 threads, the shared memory of its token tile); otherwise exactly the fixed plan. Pure: the rule is
// checked with `built` both ways, whatever this build compiled.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "gridfuzz/affine/hopper_plan.hpp"
#include "plan_test_support.hpp"

namespace gridfuzz::affine {
namespace {

MatmulShape dense_shape(std::uint64_t tokens, std::uint64_t vocab, std::uint64_t cols, int group = 64,
                        const char* dtype = "bf16", const char* bits = "4") {
  Params p = test::dense_params(tokens, vocab, cols);
  p.set("group_size", std::to_string(group));
  p.set("dtype", dtype);
  p.set("bits", bits);
  return test::shape_of(test::dense_kernel(), p);
}

bool same_launches(const LaunchPlan& a, const LaunchPlan& b) {
  if (a.launches.size() != b.launches.size()) return false;
  for (std::size_t i = 0; i < a.launches.size(); ++i)
    if (describe(a.launches[i]) != describe(b.launches[i])) return false;
  return true;
}

TEST(HopperPlan, EligibleCallIsOneCutlassLaunch) {
  const DeviceLimits sm90 = test::sm90();
  // 100 tokens (1 tile of 128) x 1024 columns (8 tiles): fewer tiles than SMs, one CTA per tile,
  // all on grid.x (raster along M').
  const HopperPlan h = plan_hopper(dense_shape(100, 1024, 768), sm90, true);
  ASSERT_TRUE(h.hopper) << h.why_not;
  ASSERT_EQ(h.plan.launches.size(), 1u);
  const LaunchSpec& l = h.plan.launches[0];
  EXPECT_EQ(l.name, "qmm_sm90a_cutlass");
  EXPECT_EQ(l.grid, (Dim3{8, 1, 1}));
  EXPECT_EQ(l.block, (Dim3{static_cast<std::uint64_t>(kHopperThreads), 1, 1}));
  EXPECT_EQ(l.dynamic_smem_bytes, kHopperNarrowTile.smem_bytes);
  EXPECT_TRUE(l.smem_optin);
  EXPECT_TRUE(predict(h.plan, sm90).accepted());
}

// Up to 128 tokens the narrow token tile (128), from 129 on the wide one (256): its shared memory in
// the launch, and the token tiles counted in its size.
TEST(HopperPlan, TokenTileFollowsTheTokenCount) {
  const DeviceLimits sm90 = test::sm90();
  EXPECT_EQ(hopper_tile(65).tokens, 128);
  EXPECT_EQ(hopper_tile(128).tokens, 128);
  EXPECT_EQ(hopper_tile(129).tokens, 256);
  EXPECT_EQ(hopper_tile(1u << 22).tokens, 256);
  const LaunchSpec narrow = plan_hopper(dense_shape(128, 1024, 768), sm90, true).plan.launches.at(0);
  const LaunchSpec wide = plan_hopper(dense_shape(129, 1024, 768), sm90, true).plan.launches.at(0);
  EXPECT_EQ(narrow.dynamic_smem_bytes, kHopperNarrowTile.smem_bytes);
  EXPECT_EQ(wide.dynamic_smem_bytes, kHopperWideTile.smem_bytes);
  // 1024 columns: 8 weight tiles; 129 tokens are one wide tile, so 8 CTAs as at 128 tokens.
  EXPECT_EQ(narrow.grid, (Dim3{8, 1, 1}));
  EXPECT_EQ(wide.grid, (Dim3{8, 1, 1}));
  // 512 tokens: 2 wide tiles x 1 weight tile (128 columns).
  EXPECT_EQ(plan_hopper(dense_shape(512, 128, 64), sm90, true).plan.launches.at(0).grid, (Dim3{2, 1, 1}));
}

TEST(HopperPlan, PersistentGridIsOneCtaPerSmAtMost) {
  const DeviceLimits sm90 = test::sm90();
  // 8192 tokens (32 wide tiles) x 4096 or 14336 columns (32 or 112 tiles): more tiles than SMs.
  const HopperPlan big = plan_hopper(dense_shape(8192, 4096, 4096), sm90, true);
  ASSERT_TRUE(big.hopper);
  EXPECT_EQ(big.plan.launches[0].grid, (Dim3{sm90.sm_count, 1, 1}));
  const HopperPlan wide = plan_hopper(dense_shape(8192, 14336, 4096), sm90, true);
  EXPECT_EQ(wide.plan.launches[0].grid, (Dim3{sm90.sm_count, 1, 1}));
  DeviceLimits few = sm90;
  few.sm_count = 7;
  EXPECT_EQ(plan_hopper(dense_shape(8192, 4096, 4096), few, true).plan.launches[0].grid, (Dim3{7, 1, 1}));
  // 257 tokens (2 wide tiles) x 128 columns (1 tile): 2 CTAs on grid.x.
  EXPECT_EQ(plan_hopper(dense_shape(257, 128, 64), sm90, true).plan.launches[0].grid, (Dim3{2, 1, 1}));
}

// The split reference of a CUTLASS call plans its chunks without the qmv_stream rule: a last
// chunk of one token (8193 = 8192 + 1) is a CUTLASS launch too.
TEST(HopperPlan, GemmPlanIgnoresTheQmvStreamRule) {
  const DeviceLimits sm90 = test::sm90();
  EXPECT_TRUE(plan_hopper(dense_shape(1, 256, 256, 128), sm90, true).stream_qmv);
  const HopperPlan gemm = plan_hopper_gemm(dense_shape(1, 256, 256, 128), sm90, true);
  ASSERT_TRUE(gemm.hopper) << gemm.why_not;
  EXPECT_EQ(gemm.plan.launches.at(0).name, "qmm_sm90a_cutlass");
}

TEST(HopperPlan, IneligibleCallsRunTheFixedPlan) {
  const DeviceLimits sm90 = test::sm90();
  const DeviceLimits sm80 = *device_preset("sm_80");
  struct Case {
    MatmulShape shape;
    DeviceLimits limits;
    bool built;
    const char* why;
  };
  const Case cases[] = {
      {dense_shape(300, 1024, 768), sm90, false, "not in this build"},
      {dense_shape(300, 1024, 768), sm80, true, "sm_80"},
      {dense_shape(300, 1024, 768, 64, "f16"), sm90, true, "dtype"},
      {dense_shape(300, 1024, 768, 64, "bf16", "8"), sm90, true, "bits"},
      {dense_shape(300, 1024, 768, 32), sm90, true, "group_size"},
  };
  for (const Case& c : cases) {
    const HopperPlan h = plan_hopper(c.shape, c.limits, c.built);
    EXPECT_FALSE(h.hopper) << c.why;
    EXPECT_NE(h.why_not.find(c.why), std::string::npos) << h.why_not;
    EXPECT_TRUE(same_launches(h.plan, plan_matmul(c.shape, Variant::fixed, c.limits).plan)) << c.why;
  }
  DeviceLimits no_room = sm90;
  // Each tile's own shared memory: a device with room for the wide tile only runs it, and the other way round.
  no_room.smem_per_block_optin = kHopperWideTile.smem_bytes - 1;
  EXPECT_NE(hopper_ineligible(dense_shape(300, 1024, 768), no_room, true)->find("shared memory"), std::string::npos);
  DeviceLimits wide_only = sm90;
  wide_only.smem_per_block_optin = kHopperWideTile.smem_bytes;
  EXPECT_FALSE(hopper_ineligible(dense_shape(300, 1024, 768), wide_only, true).has_value());
  EXPECT_NE(hopper_ineligible(dense_shape(100, 1024, 768), wide_only, true)->find("shared memory"), std::string::npos);
}

TEST(HopperPlan, VariantPlanIsThePlanOfThisBuild) {
  const Params p = test::dense_params(300, 1024, 768);
  const LaunchPlan plan = test::dense_kernel().plan(p, "hopper", test::sm90());
  const HopperPlan h = plan_hopper(test::shape_of(test::dense_kernel(), p), test::sm90(), hopper_path_built());
  EXPECT_TRUE(same_launches(plan, h.plan));
  EXPECT_EQ(h.hopper, hopper_path_built());
}

TEST(HopperPlan, OnlyTheDenseKernelHasTheVariant) {
  const auto dense = test::dense_kernel().variants();
  EXPECT_NE(std::find(dense.begin(), dense.end(), "hopper"), dense.end());
  const auto gather = test::gather_kernel().variants();
  EXPECT_EQ(std::find(gather.begin(), gather.end(), "hopper"), gather.end());
  EXPECT_THROW(test::gather_kernel().bind(test::gather_params(4, 2), "hopper"), std::invalid_argument);
}

TEST(HopperPlan, CaseKeepsNMajorCopiesOfScalesAndBiases) {
  const Params p = test::dense_params(300, 1024, 768);
  const auto specs = test::dense_kernel().buffers(p, "hopper");
  const auto fixed = test::dense_kernel().buffers(p, "fixed");
  ASSERT_EQ(specs.size(), fixed.size() + 2);
  for (std::size_t i = 0; i < fixed.size(); ++i) EXPECT_EQ(specs[i].name, fixed[i].name);  // the MLX layout first
  const std::uint64_t groups = 1024 * (768 / 64);
  EXPECT_EQ(specs[buffer_index(specs, "scales_mn")].elements, groups);
  EXPECT_EQ(specs[buffer_index(specs, "biases_mn")].elements, groups);
  EXPECT_EQ(specs[buffer_index(specs, "scales_mn")].role, BufferRole::input);
}

// Anywhere in the dense axes' range from 65 tokens on (fewer run qmm_small or qmv_stream:
// qmm_small_plan_test, qmv_stream_plan_test), the hopper variant on sm_90 is one CUTLASS launch,
// accepted, and wraps no index.
RC_GTEST_PROP(HopperPlan, NeverRefusedNorWrappedOnSm90, ()) {
  const std::uint64_t tokens = *rc::gen::inRange<std::uint64_t>(65, (1u << 22) + 1);
  const std::uint64_t vocab = *rc::gen::inRange<std::uint64_t>(1, (1u << 15) + 1) * 128;
  const int group = *rc::gen::element(64, 128);
  const std::uint64_t cols = *rc::gen::inRange<std::uint64_t>(1, (1u << 16) / 128 + 1) * 128;
  const HopperPlan h = plan_hopper(dense_shape(tokens, vocab, cols, group), test::sm90(), true);
  RC_ASSERT(h.hopper);
  const Prediction pred = predict(h.plan, test::sm90());
  RC_ASSERT(pred.outcome == "accept");
  RC_ASSERT(pred.index_wrap() == "safe");
  const Dim3 g = h.plan.launches[0].grid;
  RC_ASSERT(g.y == 1u && g.z == 1u);
  const std::uint64_t tile = tokens > 128 ? 256 : 128;
  RC_ASSERT(g.x == std::min<std::uint64_t>(test::sm90().sm_count, ((tokens + tile - 1) / tile) * (vocab / 128)));
  RC_ASSERT(h.plan.launches[0].dynamic_smem_bytes == (tokens > 128 ? 205824u : 207872u));
}

}  // namespace
}  // namespace gridfuzz::affine
