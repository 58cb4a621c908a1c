// affine.gather_qmm legacy: l = tokens*top_k on grid.z, refused from floor(65535/top_k) + 1 tokens.
#include <gtest/gtest.h>

#include <string>

#include "gridfuzz/affine/matmul_plan.hpp"
#include "plan_test_support.hpp"

namespace gridfuzz::affine {
namespace {

using test::gather_kernel;
using test::gather_params;
using test::predict_of;

class GatherLegacyBoundary : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(GatherLegacyBoundary, FirstRefusedAtFloorOfMaxGridZOverTopKPlusOne) {
  const std::uint64_t top_k = GetParam();
  const std::uint64_t first = 65535 / top_k + 1;
  const Prediction refused = predict_of(gather_kernel(), gather_params(first, top_k), "legacy");
  EXPECT_EQ(refused.outcome, "refuse:grid.z") << refused.detail;
  const Prediction last_good = predict_of(gather_kernel(), gather_params(first - 1, top_k), "legacy");
  EXPECT_EQ(last_good.outcome, "accept") << last_good.detail;
  const Prediction fixed = predict_of(gather_kernel(), gather_params(first, top_k), "fixed");
  EXPECT_EQ(fixed.outcome, "accept") << fixed.detail;
}

INSTANTIATE_TEST_SUITE_P(TopK, GatherLegacyBoundary, ::testing::Values(1u, 2u, 4u, 6u, 8u, 10u),
                         [](const auto& info) { return "top_k_" + std::to_string(info.param); });

TEST(GatherLegacy, KnownModelBoundaries) {
  // qwen3-30b-a3b (k 8) and mixtral (k 2): the 8192 and 32768 token failures of mlxcel #648/#652.
  EXPECT_EQ(predict_of(gather_kernel(), gather_params(8192, 8, 128, 768, 2048), "legacy").outcome, "refuse:grid.z");
  EXPECT_EQ(predict_of(gather_kernel(), gather_params(8191, 8, 128, 768, 2048), "legacy").outcome, "accept");
  EXPECT_EQ(predict_of(gather_kernel(), gather_params(32768, 2, 8, 14336, 4096), "legacy").outcome, "refuse:grid.z");
  EXPECT_EQ(predict_of(gather_kernel(), gather_params(32767, 2, 8, 14336, 4096), "legacy").outcome, "accept");
}

TEST(GatherLegacy, DispatchesGatherQmvBelowEightPairs) {
  const LaunchPlan small = gather_kernel().plan(gather_params(1, 4), "legacy", test::sm90());
  ASSERT_EQ(small.launches.size(), 1u);
  EXPECT_EQ(small.launches[0].grid, (Dim3{768 / 8, 1, 4}));
  EXPECT_EQ(small.launches[0].block, (Dim3{32, 8, 1}));
  const LaunchPlan big = gather_kernel().plan(gather_params(1, 8), "legacy", test::sm90());
  EXPECT_EQ(big.launches[0].grid, (Dim3{1, 768 / 128, 8}));
  EXPECT_EQ(big.launches[0].block, (Dim3{128, 1, 1}));
}

TEST(GatherLegacy, IndexTypesAreInt32) {
  const LaunchPlan plan = gather_kernel().plan(gather_params(100, 8), "legacy", test::sm90());
  ASSERT_FALSE(plan.indices.empty());
  for (const IndexRange& r : plan.indices) EXPECT_EQ(r.type, IndexType::int32) << r.name;
  // The fixed plan at this size fits int32 everywhere: it runs (and declares) the int32 kernel.
  const LaunchPlan fixed = gather_kernel().plan(gather_params(100, 8), "fixed", test::sm90());
  ASSERT_FALSE(fixed.indices.empty());
  for (const IndexRange& r : fixed.indices) EXPECT_EQ(r.type, IndexType::int32) << r.name;
  for (const LaunchSpec& l : fixed.launches) EXPECT_EQ(l.name, "qmm_sm80_fixed_int32");
}

}  // namespace
}  // namespace gridfuzz::affine
