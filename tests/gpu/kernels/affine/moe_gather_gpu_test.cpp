// affine.gather_qmm at the MoE boundaries of docs/KERNELS.md, "Boundary formulas": the legacy
// l = tokens*top_k on grid.z is refused at 65536 pairs, the fixed batch chunking passes both
// references.
#include "gpu_test_support.hpp"

namespace gridfuzz::affine::test {
namespace {

class MoeGather : public AffineGpuTest {
 protected:
  void check_model(const Params& p) {
    const auto kernel = make_gather_qmm_kernel();
    const CaseResult fixed = run(*kernel, "fixed", p);
    EXPECT_EQ(fixed.verdict.to_string(), "pass") << fixed.detail;
    EXPECT_EQ(fixed.oracle.split_mismatches, 0u);
    const CaseResult legacy = run(*kernel, "legacy", p);
    EXPECT_TRUE(starts_with(legacy.observed.to_string(), "refuse:")) << legacy.observed.to_string();
    EXPECT_EQ(legacy.prediction.outcome, "refuse:grid.z");
    EXPECT_EQ(legacy.verdict.to_string(), "fail:refused");
  }
};

TEST_F(MoeGather, Qwen3At8192Tokens) {
  const auto k = make_gather_qmm_kernel();
  check_model(with(*k, {{"tokens", "8192"}, {"top_k", "8"}, {"experts", "128"}, {"rows", "768"}, {"cols", "2048"}}));
}

TEST_F(MoeGather, MixtralAt32768Tokens) {
  const auto k = make_gather_qmm_kernel();
  check_model(with(*k, {{"tokens", "32768"}, {"top_k", "2"}, {"experts", "8"}, {"rows", "14336"}, {"cols", "4096"}}));
}

TEST_F(MoeGather, Qwen3LegacyPassesOneTokenBelow) {
  const auto k = make_gather_qmm_kernel();
  const CaseResult r = run(*k, "legacy", with(*k, {{"tokens", "8191"}, {"top_k", "8"}, {"experts", "128"},
                                                   {"rows", "768"}, {"cols", "2048"}}));
  EXPECT_EQ(r.verdict.to_string(), "pass") << r.detail;
}

}  // namespace
}  // namespace gridfuzz::affine::test
