// qmv_stream (affine.qmm's "hopper" variant below 8 tokens with 4-bit weights) on the device: it
// must pass the split reference (the same kernel one token at a time on a grid of one block per
// SM, so the rows land on other warps and loop steps; bit-exact) and the float64 CPU reference for
// 1 to 7 tokens, both activation types, the three group sizes, rows of one partial tile to eight
// tiles (opt-in shared memory), and row counts below, at and far above the grid's warps. From 2
// tokens on, rows whose length is not a multiple of 256 (qmm_small takes the others). Skips
// without a device; not tied to sm_90.
#include <string>
#include <tuple>
#include <vector>

#include "affine_matmul_kernel.hpp"
#include "gpu_test_support.hpp"
#include "gridfuzz/affine/hopper_plan.hpp"

namespace gridfuzz::affine::test {
namespace {

using QmvStream = AffineGpuTest;

MatmulShape shape_of(const Kernel& k, const Params& p) { return dynamic_cast<const AffineMatmulKernel&>(k).shape(p); }

using Shape = std::tuple<int /*tokens*/, int /*vocab*/, int /*cols*/, int /*group*/, const char* /*dtype*/>;

TEST_F(QmvStream, PassesBothReferences) {
  const auto kernel = make_dense_qmm_kernel();
  const std::vector<Shape> shapes{
      {1, 128, 64, 64, "bf16"},       {7, 384, 832, 64, "bf16"},      {1, 1152, 2816, 32, "f16"},
      {3, 4096, 4224, 128, "bf16"},   {5, 2176, 12352, 64, "f16"},    {2, 384, 28736, 64, "bf16"},
      {1, 32000, 4096, 64, "bf16"},   {6, 14336, 4160, 32, "f16"},    {1, 128256, 4096, 64, "bf16"},
      {4, 4224, 8320, 128, "bf16"}};
  for (const auto& [tokens, vocab, cols, group, dtype] : shapes) {
    const Params p = with(*kernel, {{"tokens", std::to_string(tokens)}, {"vocab", std::to_string(vocab)},
                                    {"cols", std::to_string(cols)}, {"bits", "4"},
                                    {"group_size", std::to_string(group)}, {"dtype", dtype}});
    const HopperPlan h = plan_hopper(shape_of(*kernel, p), limits_);
    ASSERT_TRUE(h.stream_qmv) << p.to_string() << ": " << h.why_not;
    const CaseResult r = run(*kernel, "hopper", p);
    EXPECT_EQ(r.verdict.to_string(), "pass") << p.to_string() << ": " << r.detail;
    EXPECT_EQ(r.oracle.split_mismatches, 0u);
  }
}

TEST_F(QmvStream, EightBitCallRunsTheFixedQmvAndPasses) {
  const auto kernel = make_dense_qmm_kernel();
  const Params p = with(*kernel, {{"tokens", "2"}, {"vocab", "1024"}, {"cols", "768"}, {"bits", "8"},
                                  {"group_size", "64"}, {"dtype", "bf16"}});
  const HopperPlan h = plan_hopper(shape_of(*kernel, p), limits_);
  EXPECT_FALSE(h.stream_qmv || h.hopper);
  EXPECT_EQ(run(*kernel, "hopper", p).verdict.to_string(), "pass");
}

}  // namespace
}  // namespace gridfuzz::affine::test
