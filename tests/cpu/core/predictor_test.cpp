// The Predictor against a second, independent formulation of the launch rules, on both sides of
// every limit, plus exact checks at the named boundaries.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <set>

#include "gridfuzz/core/limit_probes.hpp"
#include "gridfuzz/predictor.hpp"
#include "gridfuzz/properties/boundary_gen.hpp"

using namespace gridfuzz;
using gridfuzz::properties::near_limits;

namespace {

const DeviceLimits kH200 = *device_preset("sm_90");

// Independent formulation: collect every violated rule (not just the first), using different
// arithmetic (128-bit sums, register need counted per register-file partition).
std::set<Rule> violated_rules(const LaunchSpec& l) {
  std::set<Rule> v;
  const auto& g = l.grid;
  const auto& b = l.block;
  if (g.x == 0 || g.y == 0 || g.z == 0) v.insert(Rule::grid_zero);
  if (g.x >= (1ULL << 31)) v.insert(Rule::grid_x);
  if (g.y >= 65536) v.insert(Rule::grid_y);
  if (g.z >= 65536) v.insert(Rule::grid_z);
  if (b.x < 1 || b.x >= 1025) v.insert(Rule::block_x);
  if (b.y < 1 || b.y >= 1025) v.insert(Rule::block_y);
  if (b.z < 1 || b.z >= 65) v.insert(Rule::block_z);
  const u128 threads = u128{b.x} * b.y * b.z;
  if (threads > 1024) v.insert(Rule::block_threads);
  const u128 smem = u128{l.func.static_smem_bytes} + l.dynamic_smem_bytes;
  if (!l.smem_optin && smem > 48 * 1024) v.insert(Rule::smem_default);
  if (l.smem_optin && smem > 227 * 1024) v.insert(Rule::smem_optin);
  if (l.func.num_regs > 0 && threads >= 1 && threads <= 1024) {
    // 4 partitions of 16384 registers; each warp takes regs*32 rounded up to 256.
    const u128 per_warp = (u128(l.func.num_regs) * 32 + 255) / 256 * 256;
    const u128 warps = (threads + 31) / 32;
    const u128 warps_per_partition = (warps + 3) / 4;
    if (warps_per_partition * per_warp > 16384) v.insert(Rule::regs);
  }
  return v;
}

LaunchSpec make(Dim3 grid, Dim3 block, std::uint64_t smem = 0, bool optin = false, int regs = 0,
                std::uint64_t static_smem = 0) {
  LaunchSpec l;
  l.grid = grid;
  l.block = block;
  l.dynamic_smem_bytes = smem;
  l.smem_optin = optin;
  l.func.num_regs = regs;
  l.func.static_smem_bytes = static_smem;
  return l;
}

rc::Gen<LaunchSpec> boundary_launches() {
  const std::vector<std::uint64_t> grid_limits{0, 1, 65535, 65536, (1ULL << 31) - 1, 1ULL << 31, 1ULL << 32};
  const std::vector<std::uint64_t> block_limits{0, 1, 32, 64, 65, 1024, 1025};
  const std::vector<std::uint64_t> smem_limits{0, 48 * 1024, 227 * 1024, 232448};
  auto grid = near_limits(grid_limits, 0, (1ULL << 32) + 2);
  auto block_xy = near_limits(block_limits, 0, 2048);
  auto block_z = near_limits({0, 1, 64, 65}, 0, 128);
  return rc::gen::build<LaunchSpec>(
      rc::gen::set(&LaunchSpec::grid, rc::gen::build<Dim3>(rc::gen::set(&Dim3::x, grid), rc::gen::set(&Dim3::y, grid),
                                                            rc::gen::set(&Dim3::z, grid))),
      rc::gen::set(&LaunchSpec::block,
                   rc::gen::build<Dim3>(rc::gen::set(&Dim3::x, block_xy), rc::gen::set(&Dim3::y, block_xy),
                                        rc::gen::set(&Dim3::z, block_z))),
      rc::gen::set(&LaunchSpec::dynamic_smem_bytes, near_limits(smem_limits, 0, 300000)),
      rc::gen::set(&LaunchSpec::smem_optin, rc::gen::arbitrary<bool>()),
      rc::gen::set(&LaunchSpec::func,
                   rc::gen::build<FuncAttributes>(
                       rc::gen::set(&FuncAttributes::num_regs, rc::gen::inRange(0, 256)),
                       rc::gen::set(&FuncAttributes::static_smem_bytes,
                                    rc::gen::map(rc::gen::inRange<int>(0, 5), [](int k) { return std::uint64_t(k) * 1024; })))));
}

// Launches whose grid is legal, so the block/smem/regs rules decide.
rc::Gen<LaunchSpec> legal_grid_launches() {
  return rc::gen::map(boundary_launches(), [](LaunchSpec l) {
    l.grid = {1 + l.grid.x % 1000, 1 + l.grid.y % 1000, 1 + l.grid.z % 1000};
    return l;
  });
}

void expect_matches_reference(const LaunchSpec& l) {
  const LaunchVerdict v = predict_launch(l, kH200);
  const std::set<Rule> ref = violated_rules(l);
  RC_ASSERT(v.accepted == ref.empty());
  if (!v.accepted) {
    // The Predictor reports the first violated rule in its documented order.
    RC_ASSERT(v.rule.has_value());
    RC_ASSERT(*v.rule == *ref.begin());
  }
}

}  // namespace

RC_GTEST_PROP(PredictorProperty, AgreesWithIndependentFormulationNearEveryLimit, ()) {
  expect_matches_reference(*boundary_launches());
}

RC_GTEST_PROP(PredictorProperty, AgreesWithIndependentFormulationOnLegalGrids, ()) {
  expect_matches_reference(*legal_grid_launches());
}

TEST(Predictor, GridYandZLimitIs65535) {
  EXPECT_TRUE(predict_launch(make({1, 65535, 1}, {32, 1, 1}), kH200).accepted);
  EXPECT_TRUE(predict_launch(make({1, 1, 65535}, {32, 1, 1}), kH200).accepted);
  const auto y = predict_launch(make({1, 65536, 1}, {32, 1, 1}), kH200);
  const auto z = predict_launch(make({1, 1, 65536}, {32, 1, 1}), kH200);
  EXPECT_EQ(y.outcome(), "refuse:grid.y");
  EXPECT_EQ(z.outcome(), "refuse:grid.z");
  EXPECT_EQ(z.detail, "grid.z 65536 > 65535");
}

TEST(Predictor, GridXLimitIs2Pow31Minus1) {
  EXPECT_TRUE(predict_launch(make({(1ULL << 31) - 1, 1, 1}, {1, 1, 1}), kH200).accepted);
  EXPECT_EQ(predict_launch(make({1ULL << 31, 1, 1}, {1, 1, 1}), kH200).outcome(), "refuse:grid.x");
  // A value past 32 bits is still refused, not wrapped to something small.
  EXPECT_EQ(predict_launch(make({(1ULL << 32) + 5, 1, 1}, {1, 1, 1}), kH200).outcome(), "refuse:grid.x");
}

TEST(Predictor, ZeroGridIsRefusedOnEveryAxis) {
  for (Dim3 g : {Dim3{0, 1, 1}, Dim3{1, 0, 1}, Dim3{1, 1, 0}})
    EXPECT_EQ(predict_launch(make(g, {32, 1, 1}), kH200).outcome(), "refuse:grid.zero");
}

TEST(Predictor, BlockLimits) {
  EXPECT_TRUE(predict_launch(make({1, 1, 1}, {1024, 1, 1}), kH200).accepted);
  EXPECT_EQ(predict_launch(make({1, 1, 1}, {1025, 1, 1}), kH200).outcome(), "refuse:block.x");
  EXPECT_TRUE(predict_launch(make({1, 1, 1}, {1, 1, 64}), kH200).accepted);
  EXPECT_EQ(predict_launch(make({1, 1, 1}, {1, 1, 65}), kH200).outcome(), "refuse:block.z");
  EXPECT_EQ(predict_launch(make({1, 1, 1}, {205, 5, 1}), kH200).outcome(), "refuse:block.threads");  // 1025
  EXPECT_TRUE(predict_launch(make({1, 1, 1}, {512, 2, 1}), kH200).accepted);                            // 1024
}

TEST(Predictor, SharedMemoryCountsStaticPlusDynamic) {
  EXPECT_TRUE(predict_launch(make({1, 1, 1}, {32, 1, 1}, 49152), kH200).accepted);
  EXPECT_EQ(predict_launch(make({1, 1, 1}, {32, 1, 1}, 49153), kH200).outcome(), "refuse:smem.default");
  // Exactly 48 KiB dynamic plus any static smem without opt-in is refused (numba-cuda-mlir #148 and
  // kin: docs/BUG-CLASSES.md, "B.8").
  EXPECT_EQ(predict_launch(make({1, 1, 1}, {32, 1, 1}, 49152, false, 0, 16), kH200).outcome(), "refuse:smem.default");
  EXPECT_TRUE(predict_launch(make({1, 1, 1}, {32, 1, 1}, 49152, true, 0, 16), kH200).accepted);
  EXPECT_TRUE(predict_launch(make({1, 1, 1}, {32, 1, 1}, 232448, true), kH200).accepted);
  EXPECT_EQ(predict_launch(make({1, 1, 1}, {32, 1, 1}, 232449, true), kH200).outcome(), "refuse:smem.optin");
}

TEST(Predictor, RegisterFileBoundary) {
  // 128 regs: 4096 per warp, 4 warps per partition -> 16 warps = 512 threads.
  EXPECT_TRUE(predict_launch(make({1, 1, 1}, {512, 1, 1}, 0, false, 128), kH200).accepted);
  EXPECT_EQ(predict_launch(make({1, 1, 1}, {544, 1, 1}, 0, false, 128), kH200).outcome(), "refuse:regs");
  // 80 regs: 2560 per warp; 6 warps fit a 16384-register partition -> 24 warps = 768 threads.
  EXPECT_TRUE(predict_launch(make({1, 1, 1}, {768, 1, 1}, 0, false, 80), kH200).accepted);
  EXPECT_EQ(predict_launch(make({1, 1, 1}, {800, 1, 1}, 0, false, 80), kH200).outcome(), "refuse:regs");
  EXPECT_EQ(max_threads_for_regs(80, kH200), 768u);
  EXPECT_EQ(max_threads_for_regs(255, kH200), 256u);
  EXPECT_EQ(max_threads_for_regs(64, kH200), 1024u);
}

TEST(Predictor, RuleNamesRoundTrip) {
  for (const char* name : {"grid.zero", "grid.x", "grid.y", "grid.z", "block.x", "block.y", "block.z",
                           "block.threads", "smem.default", "smem.optin", "regs"}) {
    const auto r = parse_rule(name);
    ASSERT_TRUE(r.has_value()) << name;
    EXPECT_EQ(to_string(*r), name);
  }
  EXPECT_FALSE(parse_rule("grid.w").has_value());
}

TEST(Predictor, PlanReportsFirstRefusedLaunchAndHostErrors) {
  LaunchPlan plan;
  plan.launches.push_back(make({1, 1, 65535}, {32, 1, 1}));
  plan.launches.push_back(make({1, 1, 65536}, {32, 1, 1}));
  plan.launches.push_back(make({0, 1, 1}, {32, 1, 1}));
  Prediction p = predict(plan, kH200);
  EXPECT_EQ(p.outcome, "refuse:grid.z");
  EXPECT_EQ(p.refused_launch, 1u);
  plan.host_error = "div-by-zero";
  p = predict(plan, kH200);
  EXPECT_EQ(p.outcome, "host-error:div-by-zero");
  EXPECT_FALSE(p.accepted());
}

TEST(DevicePresets, EveryNamedPresetExistsWithSaneLimits) {
  for (const char* name : {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"}) {
    const auto p = device_preset(name);
    ASSERT_TRUE(p.has_value()) << name;
    EXPECT_EQ(p->max_grid_y, 65535u);
    EXPECT_EQ(p->max_grid_z, 65535u);
    EXPECT_EQ(p->max_grid_x, (1ULL << 31) - 1);
    EXPECT_GE(p->smem_per_block_optin, p->smem_per_block);
  }
  EXPECT_FALSE(device_preset("sm_91").has_value());
  EXPECT_EQ(device_preset("sm_90")->smem_per_block_optin, 232448u);
}
