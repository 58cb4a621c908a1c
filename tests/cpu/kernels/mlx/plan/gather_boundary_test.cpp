// mlx.gather_qmm upstream: GatherQMM puts B = tokens*top_k on grid.z (MLX's qmm_sm80 host
// function, qmm_sm80.cu:77-80), so the launch is refused past max_grid_z pairs.
#include <gtest/gtest.h>

#include "gridfuzz/search/strategies.hpp"
#include "mlx_test_support.hpp"
#include "plan/mlx_call.hpp"

namespace gridfuzz::mlx {
namespace {

using test::gather_kernel;
using test::gather_params;
using test::predict_of;

class GatherUpstreamBoundary : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(GatherUpstreamBoundary, FirstRefusedPastMaxGridZPairs) {
  const std::uint64_t top_k = GetParam();
  const std::uint64_t max_z = test::sm90().max_grid_z;
  const std::uint64_t first = max_z / top_k + 1;  // the first tokens with tokens*top_k > max_grid_z
  const Prediction refused = predict_of(gather_kernel(), gather_params(first, top_k), "upstream");
  EXPECT_EQ(refused.outcome, "refuse:grid.z") << refused.detail;
  EXPECT_EQ(predict_of(gather_kernel(), gather_params(first - 1, top_k), "upstream").outcome, "accept");
  EXPECT_EQ(predict_of(gather_kernel(), gather_params(first, top_k), "chunked").outcome, "accept");
  const BisectResult r = bisect_first_bad(1, 1 << 20, 1, [&](std::int64_t tokens) {
    return !predict_of(gather_kernel(), gather_params(static_cast<std::uint64_t>(tokens), top_k), "upstream")
                .accepted();
  });
  ASSERT_TRUE(r.first_bad.has_value());
  EXPECT_EQ(static_cast<std::uint64_t>(*r.first_bad), first);
}

INSTANTIATE_TEST_SUITE_P(TopK, GatherUpstreamBoundary, ::testing::Values(1u, 2u, 4u, 8u),
                         [](const auto& info) { return "top_k_" + std::to_string(info.param); });

TEST(GatherUpstream, FewPairsGoToGatherQmvElseQmmSm80WithPairsOnGridZ) {
  const MlxCall small = run_call(test::shape_of(gather_kernel(), gather_params(1, 4)), Variant::upstream, test::sm90());
  EXPECT_EQ(small.path, Path::qmv);
  ASSERT_EQ(small.launches.size(), 1u);
  EXPECT_EQ(small.launches[0].spec.grid, (Dim3{768 / 8, 1, 4}));
  const MlxCall big = run_call(test::shape_of(gather_kernel(), gather_params(1000, 8)), Variant::upstream, test::sm90());
  EXPECT_EQ(big.path, Path::qmm_sm80);
  ASSERT_EQ(big.launches.size(), 1u);
  EXPECT_EQ(big.launches[0].spec.grid, (Dim3{1, 768 / 128, 8000}));
  EXPECT_NE(big.launches[0].function, nullptr) << big.launches[0].kernel;
}

TEST(GatherUpstream, AgreesWithTheAffineModelOfMlx) {
  for (std::uint64_t tokens : {1u, 3u, 100u, 8191u, 8192u, 20000u}) {
    for (std::uint64_t top_k : {1u, 2u, 8u}) {
      const Params p = gather_params(tokens, top_k);
      const LaunchPlan ours = gather_kernel().plan(p, "upstream", test::sm90());
      const LaunchPlan model = test::affine_gather_kernel().plan(p, "legacy", test::sm90());
      ASSERT_EQ(ours.launches.size(), model.launches.size());
      for (std::size_t i = 0; i < ours.launches.size(); ++i) {
        EXPECT_EQ(ours.launches[i].grid, model.launches[i].grid) << tokens << "x" << top_k;
        EXPECT_EQ(ours.launches[i].dynamic_smem_bytes, model.launches[i].dynamic_smem_bytes);
      }
    }
  }
}

}  // namespace
}  // namespace gridfuzz::mlx
