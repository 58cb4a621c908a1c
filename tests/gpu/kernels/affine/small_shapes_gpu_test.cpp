// Small shapes across every compiled kernel (qmv/qmm, f16/bf16, 4/8-bit, every group size and
// tile_m): both variants must pass the split reference and the float64 CPU reference. This is the
// numerical check of the kernels before any boundary case.
#include <string>
#include <tuple>

#include "gpu_test_support.hpp"

namespace gridfuzz::affine::test {
namespace {

using DenseCase = std::tuple<int /*tokens*/, const char* /*bits*/, const char* /*group*/, const char* /*dtype*/>;

// Test name suffix: tokens_1_bits_4_group_64_bf16 (the printed tuple holds char pointers).
std::string case_name(const ::testing::TestParamInfo<DenseCase>& info) {
  const auto& [tokens, bits, group, dtype] = info.param;
  return "tokens_" + std::to_string(tokens) + "_bits_" + bits + "_group_" + group + "_" + dtype;
}

class DenseSmall : public AffineGpuTest, public ::testing::WithParamInterface<DenseCase> {};

TEST_P(DenseSmall, BothVariantsPass) {
  const auto kernel = make_dense_qmm_kernel();
  const auto [tokens, bits, group, dtype] = GetParam();
  const Params p = with(*kernel, {{"tokens", std::to_string(tokens)}, {"vocab", "1024"}, {"cols", "768"},
                                  {"bits", bits}, {"group_size", group}, {"dtype", dtype}});
  for (const char* variant : {"legacy", "fixed"}) {
    const CaseResult r = run(*kernel, variant, p);
    EXPECT_EQ(r.verdict.to_string(), "pass") << variant << ": " << r.detail;
    EXPECT_EQ(r.oracle.split_mismatches, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Kernels, DenseSmall,
    ::testing::Values(DenseCase{1, "4", "64", "bf16"}, DenseCase{5, "8", "32", "f16"}, DenseCase{7, "4", "128", "f16"},
                      DenseCase{9, "4", "64", "bf16"}, DenseCase{20, "8", "128", "bf16"}, DenseCase{37, "4", "32", "f16"},
                      DenseCase{200, "4", "64", "bf16"}, DenseCase{200, "8", "64", "f16"}, DenseCase{333, "4", "128", "bf16"}),
    case_name);

class GatherSmall : public AffineGpuTest, public ::testing::WithParamInterface<DenseCase> {};

TEST_P(GatherSmall, BothVariantsPass) {
  const auto kernel = make_gather_qmm_kernel();
  const auto [tokens, bits, group, dtype] = GetParam();
  const Params p = with(*kernel, {{"tokens", std::to_string(tokens)}, {"top_k", "2"}, {"experts", "6"},
                                  {"rows", "384"}, {"cols", "512"}, {"bits", bits}, {"group_size", group},
                                  {"dtype", dtype}});
  for (const char* variant : {"legacy", "fixed"}) {
    const CaseResult r = run(*kernel, variant, p);
    EXPECT_EQ(r.verdict.to_string(), "pass") << variant << ": " << r.detail;
  }
}

INSTANTIATE_TEST_SUITE_P(Kernels, GatherSmall,
                         ::testing::Values(DenseCase{1, "4", "64", "bf16"}, DenseCase{3, "8", "32", "f16"},
                                           DenseCase{100, "4", "128", "f16"}, DenseCase{100, "8", "64", "bf16"}),
                         case_name);

}  // namespace
}  // namespace gridfuzz::affine::test
