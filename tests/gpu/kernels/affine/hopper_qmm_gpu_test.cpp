// affine.qmm's "hopper" variant on the device: CUTLASS's sm90 mixed-input GEMM must pass the
// split reference (same kernel on token chunks, bit-exact) and the float64 CPU reference at small,
// odd and tile-crossing shapes, for both compiled group sizes; a call it cannot take runs the
// fixed path and passes too. Skips without a device, on a device other than sm_90, or in a build
// without the sm_90a kernel.
#include <string>
#include <tuple>
#include <vector>

#include "affine_matmul_kernel.hpp"
#include "gpu_test_support.hpp"
#include "gridfuzz/affine/hopper_plan.hpp"
#include "gridfuzz/device/device_buffer.hpp"
#include "gridfuzz/device/stream.hpp"
#include "hopper_qmm.hpp"

namespace gridfuzz::affine::test {
namespace {

class HopperQmm : public AffineGpuTest {
 protected:
  void SetUp() override {
    AffineGpuTest::SetUp();
    if (IsSkipped()) return;
    if (limits_.cc_major != 9 || limits_.cc_minor != 0)
      GTEST_SKIP() << "device is sm_" << limits_.cc_major << limits_.cc_minor << ": the hopper path is sm_90a only";
    if (!hopper_path_built()) GTEST_SKIP() << "this build has no sm_90a CUTLASS kernel (no mlx-cuda-13 headers)";
  }
};

MatmulShape shape_of(const Kernel& k, const Params& p) { return dynamic_cast<const AffineMatmulKernel&>(k).shape(p); }

using Shape = std::tuple<int /*tokens*/, int /*vocab*/, int /*cols*/, int /*group*/>;

TEST_F(HopperQmm, PassesBothReferencesAtSmallAndOddShapes) {
  const auto kernel = make_dense_qmm_kernel();
  // From 65 tokens on: fewer run qmv_stream or qmm_small (qmv_stream_gpu_test.cpp, qmm_small_gpu_test.cpp).
  const std::vector<Shape> shapes{{65, 128, 64, 64},    {66, 384, 768, 64},     {100, 1024, 768, 128},
                                  {129, 128, 4096, 64}, {1000, 2176, 512, 64}, {8193, 256, 256, 128},
                                  {300, 14336, 4096, 64}};
  for (const auto& [tokens, vocab, cols, group] : shapes) {
    const Params p = with(*kernel, {{"tokens", std::to_string(tokens)}, {"vocab", std::to_string(vocab)},
                                    {"cols", std::to_string(cols)}, {"bits", "4"},
                                    {"group_size", std::to_string(group)}, {"dtype", "bf16"}});
    ASSERT_TRUE(plan_hopper(shape_of(*kernel, p), limits_).hopper);
    const CaseResult r = run(*kernel, "hopper", p);
    EXPECT_EQ(r.verdict.to_string(), "pass") << p.to_string() << ": " << r.detail;
    EXPECT_EQ(r.oracle.split_mismatches, 0u);
  }
}

TEST_F(HopperQmm, IneligibleCallRunsTheFixedPathAndPasses) {
  const auto kernel = make_dense_qmm_kernel();
  const Params p = with(*kernel, {{"tokens", "100"}, {"vocab", "1024"}, {"cols", "768"}, {"bits", "4"},
                                  {"group_size", "64"}, {"dtype", "f16"}});
  EXPECT_FALSE(plan_hopper(shape_of(*kernel, p), limits_).hopper);
  EXPECT_EQ(run(*kernel, "hopper", p).verdict.to_string(), "pass");
}

TEST_F(HopperQmm, GroupsToNMajorTransposes) {
  const std::uint64_t n = 384, groups = 12;
  std::vector<std::uint16_t> host(n * groups), back(n * groups);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<std::uint16_t>(i * 7 + 3);
  device::DeviceBuffer src(host.size() * 2), dst(host.size() * 2);
  src.upload(host.data(), host.size() * 2);
  device::Stream stream;
  groups_to_n_major(src.get(), dst.get(), n, groups, stream.get());
  stream.synchronize();
  dst.download(back.data(), back.size() * 2);
  for (std::uint64_t r = 0; r < n; ++r)
    for (std::uint64_t g = 0; g < groups; ++g) ASSERT_EQ(back[g * n + r], host[r * groups + g]) << r << "," << g;
}

}  // namespace
}  // namespace gridfuzz::affine::test
