// mlx.*: the four kernels MLX's dispatch can pick on sm_90 (quantized.cpp:106-136, :241-262), as
// `gridfuzz list` names them, and qmm_naive's launch as MLX's own host function (qmm_naive.cu,
// compiled unmodified) plans it. The affine axes keep N a multiple of 128 and bits 4/8, where
// MLX always takes qmv or qmm_sm80 (or qmm_sm90 where K <= group_size); the shapes here that reach
// qmm_naive (N % 128 != 0) are built directly, as MLX receives them.
#include <gtest/gtest.h>

#include "mlx_test_support.hpp"
#include "plan/mlx_call.hpp"

namespace gridfuzz::mlx {
namespace {

using test::dense_kernel;
using test::dense_params;
using test::gather_kernel;
using test::gather_params;

// The prediction of a call, from the launches and indices MLX's host code planned.
Prediction predicted(const MlxCall& call) {
  LaunchPlan plan;
  plan.host_error = call.host_error;
  for (const MlxLaunch& l : call.launches) plan.launches.push_back(l.spec);
  plan.indices = call.indices;
  return predict(plan, test::sm90());
}

// gemma-3 27B's LM head (vocab 262208 = 2048.5 x 128, hidden 5376): N % 128 != 0, so MLX takes
// qmm_naive (qmm.cu:80 refuses sm80, :102-125 accepts naive).
affine::MatmulShape gemma3_27b_head(std::uint64_t tokens) {
  affine::MatmulShape s = test::shape_of(dense_kernel(), dense_params(tokens, 4096, 5376));
  s.n = 262208;
  return s;
}

TEST(DispatchOutcomes, ListNamesEveryKernelMlxCanPickAndWhatIsBuilt) {
  for (const Kernel* k : {&dense_kernel(), &gather_kernel()}) {
    const std::string d = k->description();
    for (const char* path : {"qmv", "qmm_sm80", "qmm_naive"}) EXPECT_NE(d.find(path), std::string::npos) << d;
    EXPECT_NE(d.find("not built"), std::string::npos) << d;
  }
  EXPECT_NE(dense_kernel().description().find("qmm_sm90"), std::string::npos);  // GatherQMM never asks for sm90
}

TEST(DispatchOutcomes, Gemma3HeadTakesQmmNaiveWithMlxsOwnGeometry) {
  const MlxCall call = run_call(gemma3_27b_head(16), Variant::upstream, test::sm90());
  EXPECT_EQ(call.path, Path::qmm_naive);
  ASSERT_EQ(call.launches.size(), 1u);
  const MlxLaunch& l = call.launches[0];
  EXPECT_EQ(l.function, nullptr);  // not compiled ahead of time
  EXPECT_EQ(l.spec.name, "mlx.qmm_naive");
  // qmm_naive.cu:46-66: the name NVRTC would instantiate; tile (16, 128, 64) from make_cta_tiler
  // (:17-23: tile_m max(16, min(64, next_pow2(16))), tile_n 128 on sm80+ for 2-byte types at
  // group <= 64, tile_k 64), K 5376 a multiple of 64 (aligned).
  EXPECT_EQ(l.kernel.rfind("mlx::core::cu::qmm_naive_kernel<64, true, false, true, cutlass::bfloat16_t", 0), 0u)
      << l.kernel;
  // :90-93: grid (ceil(m / tile_m), ceil(n / tile_n), l).
  EXPECT_EQ(l.spec.grid.x, 1u);
  EXPECT_EQ(l.spec.grid.y, (262208u + 127) / 128);
  EXPECT_EQ(l.spec.grid.z, 1u);
  EXPECT_GT(l.spec.block.x, 0u);
  EXPECT_EQ(l.spec.block.x % 32, 0u);
  // :96-98: x.itemsize() * (cosize(sA) + cosize(sB)), at least the two tiles' elements.
  EXPECT_GE(l.spec.dynamic_smem_bytes, 2u * (16 * 64 + 128 * 64));
  EXPECT_FALSE(l.spec.smem_optin);  // qmm_naive.cu raises no shared memory limit
  EXPECT_EQ(predicted(call).outcome, "accept");
  // Below 8 rows MLX takes qmv instead (quantized.cpp:124-130).
  EXPECT_EQ(run_call(gemma3_27b_head(7), Variant::upstream, test::sm90()).path, Path::qmv);
}

TEST(DispatchOutcomes, Gemma3HeadMeetsFinding1AtCeil2To31OverVocab) {
  // The int M*N of quantized.cpp:101-104 comes before the dispatch: ceil(2^31 / 262208) = 8191
  // tokens make B = 0, MLX takes qmv with grid.z 0 (mlx.md finding 1), whatever the kernel.
  EXPECT_EQ(run_call(gemma3_27b_head(8190), Variant::upstream, test::sm90()).path, Path::qmm_naive);
  const MlxCall wrapped = run_call(gemma3_27b_head(8191), Variant::upstream, test::sm90());
  EXPECT_EQ(wrapped.path, Path::qmv);
  EXPECT_EQ(predicted(wrapped).outcome, "refuse:grid.zero");
  // The chunked fix decides once in 64 bits (qmm_naive) and keeps every chunk's M*N below 2^31.
  const MlxCall chunked = run_call(gemma3_27b_head(8191), Variant::chunked, test::sm90());
  EXPECT_EQ(chunked.path, Path::qmm_naive);
  EXPECT_EQ(predicted(chunked).outcome, "accept");
}

TEST(DispatchOutcomes, QmmNaiveIndexRangesAreQmmSm80s) {
  // Weights of 524480 x 4096 = 2^31 + 786432 quant values: the int weight offset col*k + kk of
  // qmm_naive's (n, k) : (k, 1) layout wraps (mlx.md finding 5), as qmm_sm80's does.
  affine::MatmulShape s = gemma3_27b_head(16);
  s.n = 524480;
  s.k = 4096;
  const MlxCall call = run_call(s, Variant::upstream, test::sm90());
  ASSERT_EQ(call.path, Path::qmm_naive);
  EXPECT_EQ(predicted(call).index_wrap(), "wrap:w_row_offset");
  s.n = 524224;  // 524224 x 4096 < 2^31: every index fits
  EXPECT_EQ(predicted(run_call(s, Variant::upstream, test::sm90())).index_wrap(), "safe");
}

TEST(DispatchOutcomes, GatherWithRowsNotAMultipleOf128TakesQmmNaiveAndItsGridZ) {
  // GatherQMM (quantized.cpp:241-262) with 1000 expert rows: qmm_naive, B = tokens*top_k on grid.z.
  for (const std::uint64_t tokens : {8191u, 8192u}) {
    affine::MatmulShape s = test::shape_of(gather_kernel(), gather_params(tokens, 8));
    s.n = 1000;
    const MlxCall call = run_call(s, Variant::upstream, test::sm90());
    EXPECT_EQ(call.path, Path::qmm_naive);
    ASSERT_EQ(call.launches.size(), 1u);
    EXPECT_EQ(call.launches[0].spec.grid.z, tokens * 8);
    EXPECT_EQ(predicted(call).outcome, tokens * 8 > 65535 ? "refuse:grid.z" : "accept");
  }
}

TEST(DispatchOutcomes, QmmSm90IsPickedOnlyWhereKFitsOneGroupAndIsNotBuilt) {
  const MlxCall call = run_call(test::shape_of(dense_kernel(), dense_params(64, 4096, 64)), Variant::upstream,
                                test::sm90());
  EXPECT_EQ(call.path, Path::qmm_sm90);
  ASSERT_EQ(call.launches.size(), 1u);
  EXPECT_EQ(call.launches[0].function, nullptr);
  EXPECT_EQ(run_call(test::shape_of(dense_kernel(), dense_params(64, 4096, 128)), Variant::upstream, test::sm90()).path,
            Path::qmm_sm80);  // group 64 < K 128
}

}  // namespace
}  // namespace gridfuzz::mlx
