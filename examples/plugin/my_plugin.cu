// The gridfuzz adapter for rms_norm.cuh (Kernel API v2, on the API's defaults): the kernel and
// its launch geometry come from the user's header unchanged; the launch goes through gridfuzz's
// Launcher, so every refusal is recorded. `RmsNorm` is the family (name, axes); bind() parses one
// shape into an `RmsNormCase`, which answers everything about that case. Left to the defaults:
// the description, one variant ("default"), no constraint between axes, seeded inputs by element
// type, no split reference (the oracle checks guards, poison and the CPU samples: `split:none`),
// every buffer moved once, bit for bit.
#include <cmath>

#include "gridfuzz/plugin.hpp"
#include "rms_norm.cuh"

using namespace gridfuzz;

namespace {

class RmsNormCase final : public BoundCase {
 public:
  explicit RmsNormCase(const Params& p) : rows_(p.get_u64("rows")), cols_(p.get_u64("cols")) {}

  // The launch the user's launcher makes, from the user's own geometry function, and the `int cols`
  // it passes (a value over int32 would reach the kernel wrapped).
  LaunchPlan plan(const DeviceLimits&) const override {
    const dim3 g = rms_norm_grid(static_cast<int>(rows_));
    return {.launches = {{.name = "rms_norm", .grid = {g.x, g.y, g.z}, .block = {kRmsNormThreads, 1, 1}}},
            .host_arguments = {{"cols", cols_, IndexType::int32}}};
  }
  std::vector<BufferSpec> buffers() const override {
    return {{"x", BufferRole::input, ElementType::f32, rows_ * cols_},
            {"y", BufferRole::output, ElementType::f32, rows_ * cols_}};
  }
  // As the user's launcher: unchecked (launcher.launch, not launch_checked).
  void launch(const DeviceLimits& l, const BufferSet& b, device::Launcher& launcher, CUstream s) const override {
    static const device::Function fn = device::Function::from_symbol((const void*)rms_norm_kernel, "rms_norm");
    const float* x = b.as<float>("x");
    float* y = b.as<float>("y");
    int cols = static_cast<int>(cols_);
    float eps = 1e-6f;
    void* args[] = {&x, &y, &cols, &eps};
    launcher.launch(fn, plan(l).launches.front(), args, s);
  }
  // The first element of the last row, where a geometry bug shows first, in float64.
  std::vector<ReferenceSample> cpu_reference(const BufferSet& b, std::uint64_t, std::size_t) const override {
    std::vector<float> x(cols_);
    b.read(b.index_of("x"), (rows_ - 1) * cols_ * 4, x.data(), cols_ * 4);
    double sum = 0;
    for (float v : x) sum += double(v) * v;
    return {{b.index_of("y"), (rows_ - 1) * cols_, x[0] / std::sqrt(sum / cols_ + 1e-6), 1e-5, 1e-6}};
  }

 private:
  std::uint64_t rows_, cols_;
};

class RmsNorm final : public Kernel {
 public:
  std::string name() const override { return "my.rms_norm"; }
  std::vector<AxisSpec> axes() const override {
    return {Axis::integer("rows", 1, 1 << 20).default_value(1024),
            Axis::integer("cols", 1, 8192).default_value(128).help("hidden size")};
  }
  std::unique_ptr<BoundCase> bind(const Params& p, const std::string&) const override {
    return std::make_unique<RmsNormCase>(p);
  }
};

void register_kernels(Registry& registry) { registry.add(std::make_shared<RmsNorm>()); }

}  // namespace

GRIDFUZZ_PLUGIN(register_kernels)
