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

// The token tile: narrow (128) up to 128 tokens; from 129 on wide (256) where its waves of one
// tile per SM, at 8/5 of a narrow wave each, are fewer than the narrow tile's waves.
TEST(HopperPlan, TokenTileFollowsTheWaves) {
  const std::uint64_t sms = test::sm90().sm_count;
  ASSERT_EQ(sms, 132u);
  EXPECT_EQ(hopper_tile(128, 14336, sms).tokens, 128);    // below the wide tile's minimum
  EXPECT_EQ(hopper_tile(129, 14336, sms).tokens, 256);    // 112 weight tiles: 2 narrow waves, 1 wide
  EXPECT_EQ(hopper_tile(256, 4096, sms).tokens, 128);     // 32 weight tiles: 1 wave either way
  EXPECT_EQ(hopper_tile(512, 4096, sms).tokens, 128);     // 128 narrow tiles, still 1 wave
  EXPECT_EQ(hopper_tile(1024, 4096, sms).tokens, 256);    // 2 narrow waves, 1 wide
  EXPECT_EQ(hopper_tile(8192, 4096, sms).tokens, 256);    // 16 narrow waves, 8 wide: 12.8 < 16
  EXPECT_EQ(hopper_tile(8192, 128256, sms).tokens, 256);
  EXPECT_EQ(hopper_tile(8192, 4096, 0).tokens, 128);      // no SM count: the narrow tile
  // At 132 weight tiles: 6 narrow waves against 3 wide ones (24/5 < 6): wide; 5 against 3
  // (24/5 < 5): wide; 3 against 2 (16/5 >= 3): narrow.
  EXPECT_EQ(hopper_tile(256 * 3, 128 * 132, sms).tokens, 256);
  EXPECT_EQ(hopper_tile(128 * 5, 128 * 132, sms).tokens, 256);
  EXPECT_EQ(hopper_tile(128 * 3, 128 * 132, sms).tokens, 128);

  // The plan launches with the chosen tile's shared memory and counts its tiles in the grid.
  const DeviceLimits sm90 = test::sm90();
  const LaunchSpec narrow = plan_hopper(dense_shape(256, 4096, 768), sm90, true).plan.launches.at(0);
  const LaunchSpec wide = plan_hopper(dense_shape(129, 14336, 768), sm90, true).plan.launches.at(0);
  EXPECT_EQ(narrow.dynamic_smem_bytes, kHopperNarrowTile.smem_bytes);
  EXPECT_EQ(narrow.grid, (Dim3{64, 1, 1}));  // 32 weight tiles x 2 token tiles
  EXPECT_EQ(wide.dynamic_smem_bytes, kHopperWideTile.smem_bytes);
  EXPECT_EQ(wide.grid, (Dim3{112, 1, 1}));   // 112 weight tiles x 1 token tile
}

TEST(HopperPlan, PersistentGridIsOneCtaPerSmAtMost) {
  const DeviceLimits sm90 = test::sm90();
  // 8192 tokens x 4096 or 14336 columns (32 or 112 weight tiles): more tiles than SMs.
  const HopperPlan big = plan_hopper(dense_shape(8192, 4096, 4096), sm90, true);
  ASSERT_TRUE(big.hopper);
  EXPECT_EQ(big.plan.launches[0].grid, (Dim3{sm90.sm_count, 1, 1}));
  const HopperPlan wide = plan_hopper(dense_shape(8192, 14336, 4096), sm90, true);
  EXPECT_EQ(wide.plan.launches[0].grid, (Dim3{sm90.sm_count, 1, 1}));
  DeviceLimits few = sm90;
  few.sm_count = 7;
  EXPECT_EQ(plan_hopper(dense_shape(8192, 4096, 4096), few, true).plan.launches[0].grid, (Dim3{7, 1, 1}));
  // 257 tokens (3 narrow tiles: 1 wave, so the narrow tile) x 128 columns (1 tile): 3 CTAs on grid.x.
  EXPECT_EQ(plan_hopper(dense_shape(257, 128, 64), sm90, true).plan.launches[0].grid, (Dim3{3, 1, 1}));
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
  // Each tile's own shared memory: a device with room for the wide tile only runs the calls that take it.
  no_room.smem_per_block_optin = kHopperWideTile.smem_bytes - 1;
  EXPECT_NE(hopper_ineligible(dense_shape(8192, 4096, 768), no_room, true)->find("shared memory"), std::string::npos);
  DeviceLimits wide_only = sm90;
  wide_only.smem_per_block_optin = kHopperWideTile.smem_bytes;
  EXPECT_FALSE(hopper_ineligible(dense_shape(8192, 4096, 768), wide_only, true).has_value());
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
  // The tile: narrow up to 128 tokens; otherwise the one with fewer waves at 8/5 of a narrow wave
  // per wide wave; the grid counts its tiles and the launch asks for its shared memory.
  const std::uint64_t sms = test::sm90().sm_count, tiles_m = vocab / 128;
  const std::uint64_t narrow_waves = (tiles_m * ((tokens + 127) / 128) + sms - 1) / sms;
  const std::uint64_t wide_waves = (tiles_m * ((tokens + 255) / 256) + sms - 1) / sms;
  const bool wide = tokens > 128 && 8 * wide_waves < 5 * narrow_waves;
  const std::uint64_t tile = wide ? 256 : 128;
  RC_ASSERT(g.x == std::min<std::uint64_t>(sms, ((tokens + tile - 1) / tile) * tiles_m));
  RC_ASSERT(h.plan.launches[0].dynamic_smem_bytes == (wide ? 205824u : 207872u));
}

}  // namespace
}  // namespace gridfuzz::affine
