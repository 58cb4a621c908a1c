// qmm_small (affine.qmm's "hopper" variant at 2 to 64 tokens with 4-bit weights) on the device: it
// must pass the runner's checks (the split reference: the same kernel one token at a time, bit for
// bit; the float64 CPU reference) at 2, 8, 16, 33 and 64 tokens, both activation types, the three
// group sizes, the two #33 shapes (14336 x 4096 and the LM head 128256 x 4096); and agree with the
// existing path (the fixed variant: MLX's qmm_sm80 tile, or qmv below 8 tokens) within the
// rounding of the two (each within the CPU reference's tolerance, so within twice it of each
// other). Skips without a device; not tied to sm_90.
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "affine_matmul_kernel.hpp"
#include "gpu_test_support.hpp"
#include "gridfuzz/affine/device_ops.hpp"
#include "gridfuzz/affine/hopper_plan.hpp"
#include "gridfuzz/device/stream.hpp"
#include "gridfuzz/engine/guarded_buffers.hpp"

namespace gridfuzz::affine::test {
namespace {

using QmmSmall = AffineGpuTest;

MatmulShape shape_of(const Kernel& k, const Params& p) { return dynamic_cast<const AffineMatmulKernel&>(k).shape(p); }

using Shape = std::tuple<int /*tokens*/, int /*vocab*/, int /*cols*/, int /*group*/, const char* /*dtype*/>;

Params params(const Kernel& kernel, const Shape& s) {
  const auto& [tokens, vocab, cols, group, dtype] = s;
  Params p = Params::defaults(kernel.axes());
  p.set("tokens", std::to_string(tokens));
  p.set("vocab", std::to_string(vocab));
  p.set("cols", std::to_string(cols));
  p.set("bits", "4");
  p.set("group_size", std::to_string(group));
  p.set("dtype", dtype);
  return p;
}

TEST_F(QmmSmall, PassesBothReferences) {
  const auto kernel = make_dense_qmm_kernel();
  const std::vector<Shape> shapes{
      {2, 14336, 4096, 64, "bf16"},  {8, 14336, 4096, 64, "bf16"},   {16, 14336, 4096, 64, "bf16"},
      {33, 14336, 4096, 64, "bf16"}, {64, 14336, 4096, 64, "bf16"},  {16, 128256, 4096, 64, "bf16"},
      {2, 128256, 4096, 64, "bf16"}, {64, 128256, 4096, 64, "bf16"}, {5, 4096, 4096, 32, "f16"},
      {16, 384, 768, 128, "bf16"},   {33, 2176, 12288, 32, "bf16"},  {9, 640, 256, 64, "f16"},
      {64, 128, 28672, 128, "f16"},  {3, 4224, 2816, 64, "bf16"},
      // Four token tiles (17-32 tokens), which take 2 K parts (the first GPU run,
      // 2026-12-07, had no shape here).
      {17, 14336, 4096, 64, "bf16"}, {32, 128256, 4096, 64, "bf16"}, {24, 2176, 2816, 64, "f16"}};
  for (const Shape& s : shapes) {
    const Params p = params(*kernel, s);
    const HopperPlan h = plan_hopper(shape_of(*kernel, p), limits_);
    ASSERT_TRUE(h.small_qmm) << p.to_string() << ": " << h.why_not;
    const CaseResult r = run(*kernel, "hopper", p);
    EXPECT_EQ(r.verdict.to_string(), "pass") << p.to_string() << ": " << r.detail;
    EXPECT_EQ(r.oracle.split_mismatches, 0u);
  }
}

// The whole output of qmm_small against the fixed variant's on the same inputs, element by element:
// |small - fixed| within a relative 2^-6 plus an absolute 2^-6 (both round the dequantized weights to
// the activation type and accumulate in fp32: they differ by the K order and the output rounding);
// below 8 tokens the fixed path is qmv, whose 16-element chunk sums in the activation type allow
// an absolute 2^-3 (|out| is about 6 here, the CPU reference's qmv bound is of that order).
TEST_F(QmmSmall, AgreesWithTheFixedPathEverywhere) {
  const auto kernel = make_dense_qmm_kernel();
  device::Stream stream;
  for (const Shape& s : std::vector<Shape>{{2, 14336, 4096, 64, "bf16"}, {16, 14336, 4096, 64, "bf16"},
                                           {33, 4096, 4096, 128, "f16"}, {64, 14336, 4096, 32, "bf16"}}) {
    const Params p = params(*kernel, s);
    const auto small = kernel->bind(p, "hopper");
    const auto fixed = kernel->bind(p, "fixed");
    GuardedBuffers a(small->buffers()), b(fixed->buffers());
    small->fill_inputs(3, a, stream.get());
    fixed->fill_inputs(3, b, stream.get());
    device::Launcher la, lb;
    small->launch(limits_, a, la, stream.get());
    fixed->launch(limits_, b, lb, stream.get());
    stream.synchronize();
    ASSERT_FALSE(la.records().empty());
    EXPECT_EQ(la.records().front().spec.name.rfind("qmm_small_", 0), 0u) << la.records().front().spec.name;
    const std::size_t out = 4, count = a.bytes(out) / 2;
    std::vector<std::uint16_t> va(count), vb(count);
    a.read(out, 0, va.data(), count * 2);
    b.read(out, 0, vb.data(), count * 2);
    const Dtype dtype = std::get<4>(s) == std::string("f16") ? Dtype::float16 : Dtype::bfloat16;
    std::size_t bad = 0, first = count;
    double worst = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const double x = from_16bit_pattern(va[i], dtype), y = from_16bit_pattern(vb[i], dtype);
      const double d = std::fabs(x - y), tol = (std::get<0>(s) < 8 ? 0x1p-3 : 0x1p-6) + 0x1p-6 * std::fabs(y);
      worst = std::max(worst, d);
      if (!(d <= tol)) {
        if (first == count) first = i;
        ++bad;
      }
    }
    EXPECT_EQ(bad, 0u) << p.to_string() << ": first at " << first << " (token " << (first / std::get<1>(s)) << "), worst |diff| " << worst;
  }
}

}  // namespace
}  // namespace gridfuzz::affine::test
