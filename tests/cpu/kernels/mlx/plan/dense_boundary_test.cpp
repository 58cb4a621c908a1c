// mlx.qmm upstream: the LM head's boundaries as MLX's own host code produces them (its predicates,
// make_problem_shape and qmv/qmm_sm80 host functions, compiled unmodified), predicted from the plan.
#include <gtest/gtest.h>

#include <string>

#include "gridfuzz/search/strategies.hpp"
#include "mlx_test_support.hpp"
#include "plan/mlx_call.hpp"

namespace gridfuzz::mlx {
namespace {

using test::dense_kernel;
using test::dense_params;
using test::predict_of;

struct Model {
  const char* name;
  std::uint64_t vocab;
};

// The vocabularies of docs/upstream/mlx.md, "Real models" (each from the model's published config).
const Model kModels[] = {{"llama3", 128256}, {"qwen3", 151936}, {"gemma3", 262144}, {"gpt_oss", 201088},
                         {"deepseek_v3", 129280}};

class DenseUpstreamBoundary : public ::testing::TestWithParam<Model> {};

TEST_P(DenseUpstreamBoundary, FirstRefusedWhereIntMTimesNWraps) {
  const std::uint64_t vocab = GetParam().vocab;
  const std::uint64_t first = test::first_wrapping_rows(vocab);
  // MLX's B = out.size() / (M*N) is 0 there, so M*B = 0 < 8 picks qmv, whose grid.z is l = 0.
  const Prediction refused = predict_of(dense_kernel(), dense_params(first, vocab), "upstream");
  EXPECT_EQ(refused.outcome, "refuse:grid.zero") << refused.detail;
  const MlxCall call = run_call(test::shape_of(dense_kernel(), dense_params(first, vocab)), Variant::upstream,
                                test::sm90());
  EXPECT_EQ(call.path, Path::qmv);
  ASSERT_EQ(call.launches.size(), 1u);
  EXPECT_EQ(call.launches[0].spec.grid, (Dim3{vocab / 8, first, 0}));
  const Prediction last_good = predict_of(dense_kernel(), dense_params(first - 1, vocab), "upstream");
  EXPECT_EQ(last_good.outcome, "accept") << last_good.detail;
  EXPECT_EQ(last_good.index_wrap(), "safe");
  EXPECT_EQ(predict_of(dense_kernel(), dense_params(first, vocab), "chunked").outcome, "accept");
}

TEST_P(DenseUpstreamBoundary, StaticBisectOnTokensFindsIt) {
  const std::uint64_t vocab = GetParam().vocab;
  // Within the first wrap: past (2^32 - 1) / V the int product is positive again and B a wrong
  // but legal count (docs/upstream/mlx.md), so the predicate is monotone only up to there.
  const auto hi = static_cast<std::int64_t>(((1ull << 32) - 1) / vocab);
  const BisectResult r = bisect_first_bad(1, hi, 1, [&](std::int64_t tokens) {
    return !predict_of(dense_kernel(), dense_params(static_cast<std::uint64_t>(tokens), vocab), "upstream").accepted();
  });
  ASSERT_TRUE(r.first_bad.has_value());
  EXPECT_EQ(static_cast<std::uint64_t>(*r.first_bad), test::first_wrapping_rows(vocab));
}

INSTANTIATE_TEST_SUITE_P(RealModels, DenseUpstreamBoundary, ::testing::ValuesIn(kModels),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(DenseUpstream, DivisionByZeroWhereMTimesNIsTwoTo32) {
  // 16384 * 262144 = 2^32: the int product is 0 and eval_gpu divides by it (quantized.cpp:104).
  const Prediction p = predict_of(dense_kernel(), dense_params(16384, 262144), "upstream");
  EXPECT_EQ(p.outcome, "host-error:div-by-zero");
  EXPECT_TRUE(dense_kernel().plan(dense_params(16384, 262144), "upstream", test::sm90()).launches.empty());
}

TEST(DenseUpstream, LegalShapesPickQmvBelowEightRowsElseQmmSm80) {
  for (std::uint64_t tokens : {1u, 7u, 8u, 16u, 33u, 4096u}) {
    const MlxCall call = run_call(test::shape_of(dense_kernel(), dense_params(tokens, 128256)), Variant::upstream,
                                  test::sm90());
    EXPECT_EQ(call.path, tokens < 8 ? Path::qmv : Path::qmm_sm80) << tokens;
    ASSERT_EQ(call.launches.size(), 1u);
    EXPECT_NE(call.launches[0].function, nullptr) << call.launches[0].kernel;
  }
}

// qmm_sm80 addresses a weight row as col*k + kk in int (device/qmm_sm80.cuh:304): the last
// quant value of an N x K weight is N*K - 1, so N*K = 2^31 still fits and the next row does not.
// Both variants: rows chunking does not touch the weights. (On the H200 vocab 524288 x 4096
// passed and 524416 x 4096 faulted, docs/upstream/mlx.md, "Finding 5".)
TEST(DenseUpstream, WeightRowOffsetWrapsPastTwoTo31QuantValues) {
  for (const char* variant : {"upstream", "chunked"}) {
    EXPECT_EQ(predict_of(dense_kernel(), dense_params(16, 524288), variant).index_wrap(), "safe") << variant;
    EXPECT_EQ(predict_of(dense_kernel(), dense_params(16, 524416), variant).index_wrap(), "wrap:w_row_offset")
        << variant;
  }
}

// The affine family models the same MLX code (docs/KERNELS.md, "MLX dispatch"); here MLX's code
// runs. Both must give the same launch on every shape, legal or not, where MLX's dispatch and
// the model agree on the path: grid, block and dynamic shared memory.
TEST(DenseUpstream, AgreesWithTheAffineModelOfMlx) {
  for (std::uint64_t vocab : {32000u, 128256u, 262144u}) {
    for (std::uint64_t tokens : {1u, 5u, 8u, 17u, 40u, 64u, 1000u, 8191u, 8192u, 16743u, 16744u, 20000u, 40000u}) {
      if (vocab * tokens == (1ull << 32)) continue;
      Params p = test::dense_params(tokens, vocab);
      const LaunchPlan ours = dense_kernel().plan(p, "upstream", test::sm90());
      const LaunchPlan model = test::affine_dense_kernel().plan(p, "legacy", test::sm90());
      ASSERT_EQ(ours.host_error, model.host_error) << tokens << "x" << vocab;
      ASSERT_EQ(ours.launches.size(), model.launches.size());
      for (std::size_t i = 0; i < ours.launches.size(); ++i) {
        EXPECT_EQ(ours.launches[i].grid, model.launches[i].grid) << tokens << "x" << vocab;
        EXPECT_EQ(ours.launches[i].block, model.launches[i].block) << tokens << "x" << vocab;
        EXPECT_EQ(ours.launches[i].dynamic_smem_bytes, model.launches[i].dynamic_smem_bytes) << tokens << "x" << vocab;
      }
    }
  }
}

}  // namespace
}  // namespace gridfuzz::mlx
