// affine.qmm legacy: the boundaries of docs/KERNELS.md, "Boundary formulas", predicted from the
// plan alone.
#include <gtest/gtest.h>

#include <string>

#include "gridfuzz/affine/matmul_plan.hpp"
#include "plan_test_support.hpp"

namespace gridfuzz::affine {
namespace {

using test::dense_kernel;
using test::dense_params;
using test::predict_of;

constexpr std::uint64_t kTwoTo31 = 1ull << 31;

struct VocabCase {
  std::uint64_t vocab, first_refused;
};

class DenseLegacyBoundary : public ::testing::TestWithParam<VocabCase> {};

TEST_P(DenseLegacyBoundary, FirstRefusedAtCeilTwoTo31OverVocab) {
  const auto [vocab, first] = GetParam();
  ASSERT_EQ(first, (kTwoTo31 + vocab - 1) / vocab) << "table value disagrees with ceil(2^31/V)";
  const Prediction refused = predict_of(dense_kernel(), dense_params(first, vocab), "legacy");
  EXPECT_EQ(refused.outcome.rfind("refuse:", 0), 0u) << refused.outcome << " " << refused.detail;
  // l = 0 -> m*l = 0 < 8 -> qmv with grid.z = 0.
  EXPECT_EQ(refused.outcome, "refuse:grid.zero");
  const Prediction last_good = predict_of(dense_kernel(), dense_params(first - 1, vocab), "legacy");
  EXPECT_EQ(last_good.outcome, "accept") << last_good.detail;
  EXPECT_EQ(last_good.index_wrap(), "safe");
  const Prediction fixed = predict_of(dense_kernel(), dense_params(first, vocab), "fixed");
  EXPECT_EQ(fixed.outcome, "accept") << fixed.detail;
}

INSTANTIATE_TEST_SUITE_P(KernelsMdTable, DenseLegacyBoundary,
                         ::testing::Values(VocabCase{128256, 16744}, VocabCase{151936, 14135},
                                           VocabCase{152064, 14123}, VocabCase{262144, 8192},
                                           VocabCase{32000, 67109}),
                         [](const auto& info) { return "vocab_" + std::to_string(info.param.vocab); });

TEST(DenseLegacy, RefusedLaunchIsQmvWithZeroGridZ) {
  const auto p = dense_params(16744, 128256);
  const MatmulShape shape{.gather = false, .m = 16744, .n = 128256, .k = 4096};
  const AffinePlan plan = plan_matmul(shape, Variant::legacy, test::sm90());
  ASSERT_EQ(plan.launches.size(), 1u);
  EXPECT_EQ(plan.path, MatmulPath::qmv);
  EXPECT_EQ(plan.launches[0].spec.grid, (Dim3{128256 / 8, 16744, 0}));
  EXPECT_EQ(dense_kernel().plan(p, "legacy", test::sm90()).launches[0].grid, plan.launches[0].spec.grid);
}

TEST(DenseLegacy, DivisionByZeroAtExactMultipleOfTwoTo32) {
  const Prediction p = predict_of(dense_kernel(), dense_params(16384, 262144), "legacy");
  EXPECT_EQ(p.outcome, "host-error:div-by-zero");
  EXPECT_TRUE(dense_kernel().plan(dense_params(16384, 262144), "legacy", test::sm90()).launches.empty());
}

TEST(DenseLegacy, WrappedBatchCountIsAcceptedAndFlagged) {
  const auto params = dense_params(33488, 128256);
  const LaunchPlan plan = dense_kernel().plan(params, "legacy", test::sm90());
  ASSERT_EQ(plan.launches.size(), 1u);
  // qmm (m*l = 33488*61681 >= 8) with l = 61681 on grid.z: a grid the device accepts.
  EXPECT_EQ(plan.launches[0].grid, (Dim3{(33488 + 63) / 64, 128256 / 128, 61681}));
  const Prediction p = predict(plan, test::sm90());
  EXPECT_EQ(p.outcome, "accept");
  EXPECT_EQ(p.index_wrap().rfind("wrap:", 0), 0u) << p.index_wrap();
  EXPECT_EQ(p.index_wrap(), "wrap:out_offset");
}

TEST(DenseLegacy, EveryTokenCountBetweenRefusalAndWrapIsRefusedOrFails) {
  // From T0 to the first positive wrap (33488) the legacy call never launches successfully.
  for (std::uint64_t t = 16744; t < 33488; t += 97) {
    const Prediction p = predict_of(dense_kernel(), dense_params(t, 128256), "legacy");
    EXPECT_EQ(p.outcome.rfind("refuse:", 0), 0u) << "T=" << t << " " << p.outcome;
  }
}

}  // namespace
}  // namespace gridfuzz::affine
