// The fixed variants never hit a launch limit or an index wrap anywhere in their declared range, and
// each launch runs the int32 kernel exactly when its bounds fit.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "gridfuzz/affine/matmul_plan.hpp"
#include "plan_test_support.hpp"

namespace gridfuzz::affine {
namespace {

using test::predict_of;

// A random value of a kernel's axis within its declared bounds, biased towards both ends.
std::uint64_t draw_in(const std::vector<AxisSpec>& axes, const std::string& name, std::uint64_t multiple = 1) {
  for (const AxisSpec& a : axes) {
    if (a.name != name) continue;
    const auto lo = static_cast<std::uint64_t>(a.min), hi = static_cast<std::uint64_t>(a.max);
    const int mode = *rc::gen::inRange(0, 3);
    std::uint64_t v = mode == 0 ? hi - *rc::gen::inRange<std::uint64_t>(0, std::min<std::uint64_t>(hi - lo, 1000))
                                : *rc::gen::inRange<std::uint64_t>(lo, hi + 1);
    v = v / multiple * multiple;
    return std::max(v, (lo + multiple - 1) / multiple * multiple);
  }
  throw std::logic_error("no axis " + name);
}

void set_quantization(Params& p, const std::vector<AxisSpec>& axes) {
  const int gs = *rc::gen::element(32, 64, 128);
  p.set("group_size", std::to_string(gs));
  p.set("bits", *rc::gen::element<std::string>("4", "8"));
  p.set("dtype", *rc::gen::element<std::string>("bf16", "f16"));
  p.set("cols", std::to_string(draw_in(axes, "cols", static_cast<std::uint64_t>(qmm_tile_k(gs)))));
}

RC_GTEST_PROP(FixedVariant, DenseNeverRefusedNorWrapped, ()) {
  const Kernel& k = test::dense_kernel();
  const auto axes = k.axes();
  Params p = Params::defaults(axes);
  p.set("tokens", std::to_string(draw_in(axes, "tokens")));
  p.set("vocab", std::to_string(draw_in(axes, "vocab", 128)));
  set_quantization(p, axes);
  RC_PRE(!Params::validate(p, axes) && !k.check(p));
  const Prediction pred = predict_of(k, p, "fixed");
  RC_ASSERT(pred.outcome == "accept");
  RC_ASSERT(pred.index_wrap() == "safe");
  const MatmulShape shape = test::shape_of(k, p);
  if (const auto error = test::fixed_dispatch_error(shape, plan_matmul(shape, Variant::fixed, test::sm90())))
    RC_FAIL(*error);
}

RC_GTEST_PROP(FixedVariant, GatherNeverRefusedNorWrapped, ()) {
  const Kernel& k = test::gather_kernel();
  const auto axes = k.axes();
  Params p = Params::defaults(axes);
  p.set("tokens", std::to_string(draw_in(axes, "tokens")));
  const std::uint64_t experts = draw_in(axes, "experts");
  p.set("experts", std::to_string(experts));
  p.set("top_k", std::to_string(*rc::gen::inRange<std::uint64_t>(1, std::min<std::uint64_t>(experts, 16) + 1)));
  p.set("rows", std::to_string(draw_in(axes, "rows", 128)));
  set_quantization(p, axes);
  RC_PRE(!Params::validate(p, axes) && !k.check(p));
  const Prediction pred = predict_of(k, p, "fixed");
  RC_ASSERT(pred.outcome == "accept");
  RC_ASSERT(pred.index_wrap() == "safe");
  const MatmulShape shape = test::shape_of(k, p);
  if (const auto error = test::fixed_dispatch_error(shape, plan_matmul(shape, Variant::fixed, test::sm90())))
    RC_FAIL(*error);
}

TEST(FixedVariant, LmHeadRowCapsOfKernelsMd) {
  // X-fix row caps: min(65535, INT32_MAX / V).
  const DeviceLimits lim = test::sm90();
  EXPECT_EQ(fixed_row_cap(128256, lim), 16743u);
  EXPECT_EQ(fixed_row_cap(151936, lim), 14134u);
  EXPECT_EQ(fixed_row_cap(262144, lim), 8191u);
  EXPECT_EQ(fixed_row_cap(32000, lim), 65535u);
}

TEST(FixedVariant, LmHeadAtTheLegacyBoundaryIsTwoChunks) {
  const LaunchPlan plan = test::dense_kernel().plan(test::dense_params(16744, 128256), "fixed", test::sm90());
  ASSERT_EQ(plan.launches.size(), 2u);
  EXPECT_EQ(plan.launches[0].grid, (Dim3{(16743 + 63) / 64, 1002, 1}));
  EXPECT_EQ(plan.launches[1].grid, (Dim3{1, 1002, 1}));
}

}  // namespace
}  // namespace gridfuzz::affine
