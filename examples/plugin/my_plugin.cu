// The gridfuzz adapter for rms_norm.cuh (Kernel API v2): the kernel and its launch geometry come
// from the user's header unchanged; the launch goes through gridfuzz's Launcher so every refusal
// is recorded. `RmsNorm` describes the family; bind() parses one shape into an `RmsNormCase`.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "gridfuzz/plugin.hpp"
#include "rms_norm.cuh"

using namespace gridfuzz;

namespace {

__global__ void fill(float* x, unsigned long long n, unsigned long long seed) {
  for (auto i = blockIdx.x * 256ull + threadIdx.x; i < n; i += 256ull * gridDim.x)
    x[i] = 0.5f + ((i * 2654435761ull ^ seed) % 1000) / 1000.0f;
}

const device::Function& kernel_fn() {
  static const device::Function f = device::Function::from_symbol((const void*)rms_norm_kernel, "rms_norm");
  return f;
}
const device::Function& fill_fn() {
  static const device::Function f = device::Function::from_symbol((const void*)fill, "fill");
  return f;
}

// The launch the user's launcher makes for `rows` rows, from the user's own geometry function.
LaunchSpec rms_norm_launch(std::uint64_t rows) {
  const dim3 g = rms_norm_grid(static_cast<int>(rows));
  LaunchSpec l;
  l.name = "rms_norm";
  l.grid = {g.x, g.y, g.z};
  l.block = {kRmsNormThreads, 1, 1};
  return l;
}

// One case: the shape parsed once; everything gridfuzz asks about the case is answered here.
class RmsNormCase final : public BoundCase {
 public:
  explicit RmsNormCase(const Params& p) : rows_(p.get_u64("rows")), cols_(p.get_u64("cols")) {}

  LaunchPlan plan(const DeviceLimits&) const override {
    LaunchPlan plan;
    plan.launches.push_back(rms_norm_launch(rows_));
    plan.host_arguments.push_back({"cols", cols_, IndexType::int32});  // rms_norm_kernel(..., int cols, ...)
    return plan;
  }
  std::vector<BufferSpec> buffers() const override {
    return {{"x", BufferRole::input, ElementType::f32, rows_ * cols_},
            {"y", BufferRole::output, ElementType::f32, rows_ * cols_}};
  }
  // bytes_moved() and compare_policy() keep their defaults: every buffer once, bit for bit (rows
  // are independent and each uses one fixed reduction order).
  std::vector<SplitPiece> split(const DeviceLimits& l) const override {
    std::vector<SplitPiece> s;
    for (std::uint64_t r = 0; r < rows_; r += l.max_grid_y) s.push_back({"rows", r, std::min(rows_, r + l.max_grid_y)});
    return s;
  }
  void fill_inputs(std::uint64_t seed, const BufferSet& b, CUstream s) const override {
    float* x = b.as<float>("x");
    unsigned long long n = rows_ * cols_, sd = seed;
    void* args[] = {&x, &n, &sd};
    LaunchSpec l;
    l.name = "fill";
    l.grid = {1024, 1, 1};
    l.block = {256, 1, 1};
    device::Launcher().launch_checked(fill_fn(), l, args, s);
  }
  void launch(const DeviceLimits& l, const BufferSet& b, device::Launcher& launcher, CUstream s) const override {
    run(0, b, launcher, s, plan(l).launches.front(), false);  // as the user's launcher: unchecked
  }
  void launch_split_reference(const DeviceLimits& l, const BufferSet& b, device::Launcher& launcher,
                              CUstream s) const override {
    for (const SplitPiece& piece : split(l))
      run(piece.begin, b, launcher, s, rms_norm_launch(piece.end - piece.begin), true);
  }
  std::vector<ReferenceSample> cpu_reference(const BufferSet& b, std::uint64_t, std::size_t) const override {
    const std::uint64_t row = rows_ - 1;  // the last row, where a geometry bug shows first
    std::vector<float> x(cols_);
    b.read(b.index_of("x"), row * cols_ * 4, x.data(), cols_ * 4);
    double ss = 0;
    for (float v : x) ss += double(v) * v;
    return {{b.index_of("y"), row * cols_, x[0] / std::sqrt(ss / cols_ + 1e-6), 1e-5, 1e-6}};
  }

 private:
  void run(std::uint64_t r0, const BufferSet& b, device::Launcher& launcher, CUstream s, const LaunchSpec& l,
           bool checked) const {
    const float* x = b.as<float>("x") + r0 * cols_;
    float* y = b.as<float>("y") + r0 * cols_;
    int c = static_cast<int>(cols_);
    float eps = 1e-6f;
    void* args[] = {&x, &y, &c, &eps};
    checked ? launcher.launch_checked(kernel_fn(), l, args, s) : launcher.launch(kernel_fn(), l, args, s);
  }
  std::uint64_t rows_, cols_;
};

// The family: name, axes, variants; bind() makes one case.
class RmsNorm final : public Kernel {
 public:
  std::string name() const override { return "my.rms_norm"; }
  std::string description() const override { return "RMSNorm, rows on grid.y (user kernel)"; }
  std::vector<std::string> variants() const override { return {"legacy"}; }
  std::vector<AxisSpec> axes() const override {
    return {{"rows", "rows", "1024", {}, 1, 1 << 20}, {"cols", "hidden size", "128", {}, 1, 8192}};
  }
  std::optional<std::string> check(const Params&) const override { return std::nullopt; }
  // launch_owner() keeps its default, LaunchOwner::harness_launcher: launch() goes through gridfuzz's
  // Launcher. To call the user's own launcher as it is (rms_norm() in the header), return
  // LaunchOwner::own_host_code and call it from launch(): gridfuzz records its launches itself.
  std::unique_ptr<BoundCase> bind(const Params& p, const std::string& variant) const override {
    if (variant != "legacy") throw std::invalid_argument(name() + ": unknown variant '" + variant + "'");
    return std::make_unique<RmsNormCase>(p);
  }
};

void register_kernels(Registry& registry) { registry.add(std::make_shared<RmsNorm>()); }

}  // namespace

GRIDFUZZ_PLUGIN(register_kernels)
