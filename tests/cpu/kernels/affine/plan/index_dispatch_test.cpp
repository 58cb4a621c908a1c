// The fixed variant's 32/64-bit index dispatch at its boundaries: each launch runs the int32
// kernel exactly when every offset it forms is below 2^31, the plan declares the ranges of the
// kernel it picked, and the prediction is safe on both sides of every bound.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <bit>

#include "gridfuzz/affine/matmul_plan.hpp"
#include "plan_test_support.hpp"

namespace gridfuzz::affine {
namespace {

using test::dense_kernel;
using test::dense_params;
using test::gather_kernel;
using test::gather_params;

constexpr u128 kTwoTo31 = u128{1} << 31;

struct Planned {
  AffinePlan plan;
  Prediction prediction;
};

Planned plan_fixed_case(const Kernel& k, const Params& p) {
  EXPECT_FALSE(k.check(p)) << *k.check(p);
  const MatmulShape shape = test::shape_of(k, p);
  Planned out{plan_matmul(shape, Variant::fixed, test::sm90()), test::predict_of(k, p, "fixed")};
  // The adapter's plan is the one checked here.
  EXPECT_EQ(k.plan(p, "fixed", test::sm90()).launches.size(), out.plan.launches.size());
  if (const auto error = test::fixed_dispatch_error(shape, out.plan)) ADD_FAILURE() << *error;
  EXPECT_EQ(out.prediction.outcome, "accept") << out.prediction.detail;
  EXPECT_EQ(out.prediction.index_wrap(), "safe");
  return out;
}

const IndexRange& range_named(const LaunchPlan& plan, const std::string& name) {
  for (const IndexRange& r : plan.indices)
    if (r.name == name) return r;
  throw std::logic_error("no index range " + name);
}

// Gather out offset = pairs*n (m = 1, one launch below 65536 pairs): n = 65536, top_k 1, so
// 32768 tokens end exactly at 2^31 and 32769 tokens cross it.
TEST(FixedIndexDispatch, GatherOutOffsetCrossingTwoTo31) {
  const Planned below = plan_fixed_case(gather_kernel(), gather_params(32768, 1, 8, 65536, 2048));
  ASSERT_EQ(below.plan.launches.size(), 1u);
  EXPECT_FALSE(below.plan.launches[0].wide_index);
  EXPECT_EQ(below.plan.launches[0].spec.name, "qmm_sm80_fixed_int32");
  const IndexRange& out32 = range_named(below.plan.plan, "out_offset");
  EXPECT_EQ(out32.max_value, kTwoTo31 - 1);
  EXPECT_EQ(out32.type, IndexType::int32);

  const Planned above = plan_fixed_case(gather_kernel(), gather_params(32769, 1, 8, 65536, 2048));
  ASSERT_EQ(above.plan.launches.size(), 1u);
  EXPECT_TRUE(above.plan.launches[0].wide_index);
  EXPECT_EQ(above.plan.launches[0].spec.name, "qmm_sm80_fixed_int64");
  const IndexRange& out64 = range_named(above.plan.plan, "out_offset");
  EXPECT_EQ(out64.max_value, kTwoTo31 - 1 + 65536);
  EXPECT_EQ(out64.type, IndexType::int64);
  for (const IndexRange& r : above.plan.plan.indices) EXPECT_EQ(r.type, IndexType::int64) << r.name;
}

// Dense out offset: the row chunks of min(65535, INT32_MAX / n) keep rows*n below 2^31, so the
// LM head stays on the int32 kernel on both sides of the legacy boundary (16743 | 16744 tokens).
TEST(FixedIndexDispatch, LmHeadChunksStayInt32) {
  for (std::uint64_t tokens : {16743u, 16744u, 100000u}) {
    const Planned p = plan_fixed_case(dense_kernel(), dense_params(tokens, 128256));
    for (const AffineLaunch& a : p.plan.launches) EXPECT_FALSE(a.wide_index) << "tokens " << tokens;
    EXPECT_LT(range_named(p.plan.plan, "out_offset").max_value, kTwoTo31);
  }
}

// Dense x offset = rows*k: vocab 128 (chunks of 65535 rows), k 65536, so 32768 tokens end at
// exactly 2^31 and 32769 cross it.
TEST(FixedIndexDispatch, DenseXOffsetCrossingTwoTo31) {
  const Planned below = plan_fixed_case(dense_kernel(), dense_params(32768, 128, 65536));
  ASSERT_EQ(below.plan.launches.size(), 1u);
  EXPECT_FALSE(below.plan.launches[0].wide_index);
  EXPECT_EQ(range_named(below.plan.plan, "x_offset").max_value, kTwoTo31 - 1);
  const Planned above = plan_fixed_case(dense_kernel(), dense_params(32769, 128, 65536));
  ASSERT_EQ(above.plan.launches.size(), 1u);
  EXPECT_TRUE(above.plan.launches[0].wide_index);
  EXPECT_EQ(range_named(above.plan.plan, "x_offset").type, IndexType::int64);
}

// A full chunk that needs int64 and a remainder chunk that fits: each launch gets its own kernel
// and the plan declares both groups, each name saying which launches it covers.
TEST(FixedIndexDispatch, MixedWidthsAcrossChunks) {
  const Planned p = plan_fixed_case(dense_kernel(), dense_params(65535 + 100, 128, 65536));
  ASSERT_EQ(p.plan.launches.size(), 2u);
  EXPECT_TRUE(p.plan.launches[0].wide_index);
  EXPECT_FALSE(p.plan.launches[1].wide_index);
  EXPECT_EQ(p.plan.launches[0].spec.name, "qmm_sm80_fixed_int64");
  EXPECT_EQ(p.plan.launches[1].spec.name, "qmm_sm80_fixed_int32");
  const IndexRange& x32 = range_named(p.plan.plan, "x_offset[int32 launches]");
  EXPECT_EQ(x32.type, IndexType::int32);
  EXPECT_EQ(x32.max_value, u128{100} * 65536 - 1);
  const IndexRange& x64 = range_named(p.plan.plan, "x_offset[int64 launches]");
  EXPECT_EQ(x64.type, IndexType::int64);
  EXPECT_EQ(x64.max_value, u128{65535} * 65536 - 1);
}

// Weight offset = n*k*bits/32 words: vocab 2^22 at 8 bits, k 2048 ends at exactly 2^31 words,
// k 2112 crosses it (one chunk of 16 tokens either way).
TEST(FixedIndexDispatch, DenseWeightOffsetCrossingTwoTo31) {
  Params below = dense_params(16, 1u << 22, 2048);
  below.set("bits", "8");
  const Planned b = plan_fixed_case(dense_kernel(), below);
  ASSERT_EQ(b.plan.launches.size(), 1u);
  EXPECT_FALSE(b.plan.launches[0].wide_index);
  EXPECT_EQ(range_named(b.plan.plan, "w_offset").max_value, kTwoTo31 - 1);
  Params above = dense_params(16, 1u << 22, 2112);
  above.set("bits", "8");
  const Planned a = plan_fixed_case(dense_kernel(), above);
  ASSERT_EQ(a.plan.launches.size(), 1u);
  EXPECT_TRUE(a.plan.launches[0].wide_index);
  EXPECT_EQ(range_named(a.plan.plan, "w_offset").type, IndexType::int64);
}

// gather_qmv forms its weight offsets in int64 in both kernels: 512 experts of 2^20 rows put
// them past 2^31 words, yet qmv stays on the int32 kernel (declaring w/scales int64), while qmm
// at the same weights (8 pairs) must go wide.
TEST(FixedIndexDispatch, GatherQmvWeightOffsetsAreAlwaysInt64) {
  const Planned qmv = plan_fixed_case(gather_kernel(), gather_params(1, 4, 512, 1u << 20, 64));
  ASSERT_EQ(qmv.plan.path, MatmulPath::qmv);
  EXPECT_FALSE(qmv.plan.launches[0].wide_index);
  EXPECT_EQ(qmv.plan.launches[0].spec.name, "gather_qmv_fixed_int32");
  const IndexRange& w = range_named(qmv.plan.plan, "w_offset");
  EXPECT_GE(w.max_value, kTwoTo31);
  EXPECT_EQ(w.type, IndexType::int64);
  EXPECT_EQ(range_named(qmv.plan.plan, "w_batch_rows").type, IndexType::int32);
  EXPECT_EQ(range_named(qmv.plan.plan, "out_offset").type, IndexType::int32);

  const Planned qmm = plan_fixed_case(gather_kernel(), gather_params(1, 8, 512, 1u << 20, 64));
  ASSERT_EQ(qmm.plan.path, MatmulPath::qmm);
  EXPECT_TRUE(qmm.plan.launches[0].wide_index);
}

// The benchmarked shapes (qmm M 8192 and qmv M 1) run the int32 kernel: the same instantiation
// as legacy, so fixed costs nothing there.
TEST(FixedIndexDispatch, BenchmarkShapesRunTheLegacyInstantiation) {
  for (const Params& p : {dense_params(8192, 4096), dense_params(8192, 14336), dense_params(1, 4096),
                          dense_params(1, 128256)}) {
    const Planned fixed = plan_fixed_case(dense_kernel(), p);
    const AffinePlan legacy = plan_matmul(test::shape_of(dense_kernel(), p), Variant::legacy, test::sm90());
    ASSERT_EQ(fixed.plan.launches.size(), 1u);
    ASSERT_EQ(legacy.launches.size(), 1u);
    const AffineLaunch& f = fixed.plan.launches[0];
    const AffineLaunch& l = legacy.launches[0];
    EXPECT_EQ(f.wide_index, l.wide_index);
    EXPECT_EQ(f.path, l.path);
    EXPECT_EQ(f.tile_m, l.tile_m);
    EXPECT_EQ(f.tile_k, l.tile_k);
    EXPECT_EQ(f.spec.grid, l.spec.grid);
    EXPECT_EQ(f.spec.block, l.spec.block);
    EXPECT_EQ(f.spec.dynamic_smem_bytes, l.spec.dynamic_smem_bytes);
  }
}

// Log-uniform in [lo, hi], rounded down to a multiple of `multiple` (lo is one): every power of two
// is drawn about equally often, so shapes land on both sides of each 2^31 bound (the axis-biased
// draws of fixed_variant_test mostly pick huge vocabularies, where every launch is wide).
std::uint64_t log_uniform(std::uint64_t lo, std::uint64_t hi, std::uint64_t multiple = 1) {
  const int e = *rc::gen::inRange(std::bit_width(lo), std::bit_width(hi) + 1);
  const std::uint64_t top = std::uint64_t{1} << (e - 1);
  const std::uint64_t v = std::clamp(*rc::gen::inRange(top, 2 * top), lo, hi);
  return v / multiple * multiple;
}

void set_random_quantization(Params& p) {
  const int gs = *rc::gen::element(32, 64, 128);
  p.set("group_size", std::to_string(gs));
  p.set("bits", *rc::gen::element<std::string>("4", "8"));
  p.set("cols", std::to_string(log_uniform(128, 1 << 16, 128)));
}

void check_dispatch(const Kernel& k, const Params& p) {
  const MatmulShape shape = test::shape_of(k, p);
  const AffinePlan plan = plan_matmul(shape, Variant::fixed, test::sm90());
  if (const auto error = test::fixed_dispatch_error(shape, plan)) RC_FAIL(*error);
  const Prediction pred = test::predict_of(k, p, "fixed");
  RC_ASSERT(pred.outcome == "accept");
  RC_ASSERT(pred.index_wrap() == "safe");
  const bool any_wide = std::any_of(plan.launches.begin(), plan.launches.end(), [](const AffineLaunch& a) { return a.wide_index; });
  const bool any_narrow = std::any_of(plan.launches.begin(), plan.launches.end(), [](const AffineLaunch& a) { return !a.wide_index; });
  RC_TAG(any_wide ? (any_narrow ? "mixed" : "int64") : "int32");
}

// A value within a few steps of `target` (a bound's crossing point), clamped to [lo, hi].
std::uint64_t near(std::uint64_t target, std::uint64_t lo, std::uint64_t hi, std::uint64_t step = 1) {
  const std::int64_t delta = *rc::gen::inRange<std::int64_t>(-3, 4) * static_cast<std::int64_t>(step);
  const std::int64_t v = static_cast<std::int64_t>(target / step * step) + delta;
  return std::clamp<std::uint64_t>(static_cast<std::uint64_t>(std::max<std::int64_t>(v, 0)), lo, hi) / step * step;
}

RC_GTEST_PROP(FixedIndexDispatch, DenseLogUniformShapes, ()) {
  Params p = dense_params(log_uniform(1, 1 << 22), log_uniform(128, 1 << 22, 128));
  set_random_quantization(p);
  // Half the cases sit on a crossing: x (tokens*cols, vocab small enough for big chunks) or w
  // (vocab*cols*bits/32).
  // Chunks hold at most 65535 rows, so x crosses only for cols > 32768, and w only for
  // cols*bits >= 2^14 (vocab <= 2^22).
  const std::uint64_t bits = p.get_u64("bits");
  switch (*rc::gen::inRange(0, 4)) {
    case 1: {
      const std::uint64_t cols = 128 * *rc::gen::inRange<std::uint64_t>(257, 513);
      p.set("cols", std::to_string(cols));
      p.set("vocab", std::to_string(128 * *rc::gen::inRange<std::uint64_t>(1, 9)));
      p.set("tokens", std::to_string(near((std::uint64_t{1} << 31) / cols, 1, 1 << 22) +
                                     *rc::gen::element<std::uint64_t>(0, 65535)));
      break;
    }
    case 2: {
      const std::uint64_t cols = log_uniform(4096, 1 << 16, 128);
      p.set("cols", std::to_string(cols));
      p.set("vocab", std::to_string(near((std::uint64_t{1} << 36) / (cols * bits), 128, 1 << 22, 128)));
      break;
    }
    default: break;
  }
  RC_PRE(!dense_kernel().check(p));
  check_dispatch(dense_kernel(), p);
}

RC_GTEST_PROP(FixedIndexDispatch, GatherLogUniformShapes, ()) {
  const std::uint64_t experts = log_uniform(1, 512);
  Params p = gather_params(log_uniform(1, 1 << 20), *rc::gen::inRange<std::uint64_t>(1, std::min<std::uint64_t>(experts, 16) + 1),
                           experts, log_uniform(128, 1 << 20, 128));
  set_random_quantization(p);
  // Half the cases sit on a crossing: out (pairs*rows) or w (experts*rows*cols*bits/32).
  const std::uint64_t cols = p.get_u64("cols"), bits = p.get_u64("bits"), rows = p.get_u64("rows");
  const std::uint64_t top_k = p.get_u64("top_k");
  switch (*rc::gen::inRange(0, 4)) {
    case 1: p.set("tokens", std::to_string(near((std::uint64_t{1} << 31) / (rows * top_k), 1, 1 << 20))); break;
    case 2: p.set("rows", std::to_string(near((std::uint64_t{1} << 36) / (experts * cols * bits), 128, 1 << 20, 128))); break;
    default: break;
  }
  RC_PRE(!gather_kernel().check(p));
  check_dispatch(gather_kernel(), p);
}

}  // namespace
}  // namespace gridfuzz::affine
