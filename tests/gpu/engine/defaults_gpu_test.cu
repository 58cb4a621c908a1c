// A kernel adapted on the API's defaults only (plan, buffers, launch, cpu_reference) runs end to
// end on a GPU: its inputs are the seeded values of its element types, filled on the GPU exactly
// as seeded_element_bits says; without a split reference the oracle checks guards, poison and the
// CPU samples, and says `split:none`.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "gridfuzz/device/context.hpp"
#include "gridfuzz/device/device.hpp"
#include "gridfuzz/device/driver_api.hpp"
#include "gridfuzz/engine/guarded_buffers.hpp"
#include "gridfuzz/engine/runner.hpp"
#include "gridfuzz/engine/seeded_values.hpp"

using namespace gridfuzz;

namespace {

__global__ void twice(const float* x, const unsigned short* h, float* y, unsigned long long n) {
  const unsigned long long i = blockIdx.x * 256ull + threadIdx.x;
  if (i < n) y[i] = 2.0f * x[i] + static_cast<float>(h[i] & 1);
}

class TwiceCase final : public BoundCase {
 public:
  explicit TwiceCase(std::uint64_t n) : n_(n) {}
  LaunchPlan plan(const DeviceLimits&) const override {
    return {.launches = {{.name = "twice", .grid = {(n_ + 255) / 256, 1, 1}, .block = {256, 1, 1}}}};
  }
  std::vector<BufferSpec> buffers() const override {
    return {{"x", BufferRole::input, ElementType::f32, n_},
            {"h", BufferRole::input, ElementType::f16, n_},
            {"y", BufferRole::output, ElementType::f32, n_}};
  }
  void launch(const DeviceLimits& l, const BufferSet& b, device::Launcher& launcher, CUstream s) const override {
    static const device::Function fn = device::Function::from_symbol((const void*)twice, "twice");
    const float* x = b.as<float>("x");
    const unsigned short* h = b.as<unsigned short>("h");
    float* y = b.as<float>("y");
    unsigned long long n = n_;
    void* args[] = {&x, &h, &y, &n};
    launcher.launch(fn, plan(l).launches.front(), args, s);
  }
  std::vector<ReferenceSample> cpu_reference(const BufferSet& b, std::uint64_t, std::size_t) const override {
    std::vector<ReferenceSample> out;
    for (std::uint64_t i : {std::uint64_t{0}, n_ / 2, n_ - 1}) {
      float x = 0;
      std::uint16_t h = 0;
      b.read(b.index_of("x"), i * 4, &x, 4);
      b.read(b.index_of("h"), i * 2, &h, 2);
      out.push_back({b.index_of("y"), i, 2.0 * x + (h & 1), 1e-6, 0});  // float rounding of the sum
    }
    return out;
  }

 private:
  std::uint64_t n_;
};

class Twice final : public Kernel {
 public:
  std::string name() const override { return "test.twice"; }
  std::vector<AxisSpec> axes() const override { return {Axis::integer("n", 1, 1 << 24).default_value(1000)}; }
  std::unique_ptr<BoundCase> bind(const Params& p, const std::string&) const override {
    return std::make_unique<TwiceCase>(p.get_u64("n"));
  }
};

class DefaultsGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (device::device_count() == 0) {
      std::string why;
      device::driver_available(&why);
      GTEST_SKIP() << "no CUDA device: " << why;
    }
    ctx_ = std::make_unique<device::PrimaryContext>(0);
    limits_ = device::query_limits(0);
  }
  std::unique_ptr<device::PrimaryContext> ctx_;
  DeviceLimits limits_;
};

TEST_F(DefaultsGpu, WithoutASplitReferenceTheOracleChecksTheCpuSamplesAndSaysSo) {
  const Twice k;
  Case c{k.name(), k.variants().front(), Params::defaults(k.axes()), 5};
  c.params.set("n", "100000");
  const CaseResult r = run_case(k, c, limits_, RunOptions{}, Ledger());
  EXPECT_EQ(r.observed.kind, Observed::Kind::accept) << r.detail;
  EXPECT_EQ(r.oracle.kind, OracleResult::Kind::compared) << r.detail;
  EXPECT_FALSE(r.oracle.split_reference);
  EXPECT_EQ(r.oracle.unwritten, 0u);
  EXPECT_EQ(r.oracle.cpu_total, 3u);
  EXPECT_EQ(r.oracle.cpu_ok, 3u);
  EXPECT_EQ(r.oracle.to_string(), "split:none unwritten:0 cpu:3/3");
  EXPECT_EQ(r.verdict, Verdict::of(Verdict::Kind::pass)) << r.detail;
}

// The default fill, read back: the bits seeded_element_bits gives for (seed, buffer, element).
TEST_F(DefaultsGpu, TheDefaultFillWritesTheSeededValuesOfEachType) {
  const TwiceCase bound(5000);
  GuardedBuffers bufs(bound.buffers());
  bound.fill_inputs(11, bufs, nullptr);
  std::vector<float> x(5000);
  std::vector<std::uint16_t> h(5000);
  bufs.read(0, 0, x.data(), x.size() * 4);
  bufs.read(1, 0, h.data(), h.size() * 2);
  for (std::uint64_t i = 0; i < 5000; ++i) {
    std::uint32_t xb = 0;
    std::memcpy(&xb, &x[i], 4);
    ASSERT_EQ(xb, seeded_element_bits(ElementType::f32, 11, 0, i)) << i;
    ASSERT_EQ(h[i], seeded_element_bits(ElementType::f16, 11, 1, i)) << i;
  }
}

}  // namespace
