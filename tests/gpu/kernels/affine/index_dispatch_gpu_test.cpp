// The fixed variant's 32/64-bit index dispatch on the device: a dense call whose first row chunk
// needs int64 offsets (x: 65535 rows * 65536 cols > 2^31 elements) and whose remainder chunk
// (100 rows) fits int32 runs both kernels in one call, and both references must agree exactly.
// (The small and boundary tests run the int32 kernel in production and the int64 one in the
// split reference; this one runs the int64 kernel in production.)
#include "gpu_test_support.hpp"

namespace gridfuzz::affine::test {
namespace {

class IndexDispatch : public AffineGpuTest {};

TEST_F(IndexDispatch, MixedWidthChunksPass) {
  const auto kernel = make_dense_qmm_kernel();
  // x is 65635 * 65536 bf16 = 8.6 GB.
  const Params p = with(*kernel, {{"tokens", "65635"}, {"vocab", "128"}, {"cols", "65536"}, {"bits", "4"},
                                  {"group_size", "64"}, {"dtype", "bf16"}});
  const CaseResult r = run(*kernel, "fixed", p);
  ASSERT_EQ(r.plan.launches.size(), 2u);
  EXPECT_EQ(r.plan.launches[0].name, "qmm_sm80_fixed_int64");
  EXPECT_EQ(r.plan.launches[1].name, "qmm_sm80_fixed_int32");
  EXPECT_EQ(r.prediction.index_wrap(), "safe");
  EXPECT_EQ(r.verdict.to_string(), "pass") << r.detail;
  EXPECT_EQ(r.oracle.split_mismatches, 0u);
  EXPECT_NE(r.oracle.to_string().find("cpu:256/256"), std::string::npos) << r.oracle.to_string();
}

}  // namespace
}  // namespace gridfuzz::affine::test
