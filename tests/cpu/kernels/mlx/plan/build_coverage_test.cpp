// mlx.*: the kernels MLX's host code names are the ones this build compiled ahead of time (their
// names come from upstream's formatting on both sides), and check() refuses the rest clearly.
#include <gtest/gtest.h>

#include "mlx_test_support.hpp"
#include "plan/mlx_call.hpp"
#include "upstream/aot_kernels.hpp"

namespace gridfuzz::mlx {
namespace {

using test::dense_kernel;
using test::dense_params;

TEST(BuildCoverage, EveryQmmSm80KernelOfTheSweepIsCompiled) {
  // group 64: bf16/f16 x 4/8 bits x tile_m 16/32/64; groups 32 and 128: bf16 4-bit x tile_m 16/32/64
  EXPECT_EQ(aot_kernels().size(), 18u);
  for (const char* dtype : {"bf16", "f16"}) {
    for (const char* bits : {"4", "8"}) {
      for (std::uint64_t tokens : {1u, 8u, 16u, 17u, 32u, 33u, 64u, 5000u}) {
        Params p = dense_params(tokens, 4096);
        p.set("dtype", dtype);
        p.set("bits", bits);
        EXPECT_EQ(dense_kernel().check(p), std::nullopt) << dtype << " " << bits << " " << tokens;
        const MlxCall call = run_call(test::shape_of(dense_kernel(), p), Variant::upstream, test::sm90());
        ASSERT_EQ(call.launches.size(), 1u);
        EXPECT_NE(call.launches[0].function, nullptr) << call.launches[0].kernel;
      }
    }
  }
}

TEST(BuildCoverage, Bf16FourBitQmmSm80IsCompiledAtGroups32And128) {
  for (const char* group : {"32", "128"}) {
    for (std::uint64_t tokens : {8u, 17u, 33u, 5000u}) {
      Params p = dense_params(tokens, 4096);
      p.set("group_size", group);
      EXPECT_EQ(dense_kernel().check(p), std::nullopt) << group << " " << tokens;
      const MlxCall call = run_call(test::shape_of(dense_kernel(), p), Variant::upstream, test::sm90());
      ASSERT_EQ(call.launches.size(), 1u);
      EXPECT_NE(call.launches[0].kernel.find(std::string("qmm_sm80_kernel<") + group + ", cutlass::bfloat16_t"),
                std::string::npos)
          << call.launches[0].kernel;
      EXPECT_NE(call.launches[0].function, nullptr) << call.launches[0].kernel;
    }
  }
}

TEST(BuildCoverage, UncompiledKernelsAreRefusedByName) {
  Params p = dense_params(64, 4096);
  p.set("group_size", "128");
  p.set("dtype", "f16");  // group 128 is built for bf16 4-bit only
  const auto why = dense_kernel().check(p);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("qmm_sm80_kernel<128, cutlass::half_t"), std::string::npos) << *why;
  p.set("tokens", "1");  // qmv: every group size of qmv.cu is compiled
  EXPECT_EQ(dense_kernel().check(p), std::nullopt);
  // group_size >= K on sm_90: MLX dispatches qmm_sm90 (qmm.cu:20-62), not built here.
  Params sm90 = dense_params(64, 4096, 64);
  const auto why90 = dense_kernel().check(sm90);
  ASSERT_TRUE(why90.has_value());
  EXPECT_NE(why90->find("qmm_sm90"), std::string::npos) << *why90;
}

}  // namespace
}  // namespace gridfuzz::mlx
