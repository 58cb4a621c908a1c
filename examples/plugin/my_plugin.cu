// The gridfuzz adapter for rms_norm.cuh: the kernel and its launch geometry come from the user's
// header unchanged; the launch goes through gridfuzz's Launcher so every refusal is recorded.
#include <algorithm>
#include <cmath>

#include "gridfuzz/plugin.hpp"
#include "rms_norm.cuh"

using namespace gridfuzz;

namespace {

__global__ void fill(float* x, unsigned long long n, unsigned long long seed) {
  for (auto i = blockIdx.x * 256ull + threadIdx.x; i < n; i += 256ull * gridDim.x)
    x[i] = 0.5f + ((i * 2654435761ull ^ seed) % 1000) / 1000.0f;
}

class RmsNorm final : public Kernel {
 public:
  std::string name() const override { return "my.rms_norm"; }
  std::string description() const override { return "RMSNorm, rows on grid.y (user kernel)"; }
  std::vector<std::string> variants() const override { return {"legacy"}; }
  std::vector<AxisSpec> axes() const override {
    return {{"rows", "rows", "1024", {}, 1, 1 << 20}, {"cols", "hidden size", "128", {}, 1, 8192}};
  }
  std::optional<std::string> check(const Params&) const override { return std::nullopt; }
  LaunchPlan plan(const Params& p, const std::string&, const DeviceLimits&) const override {
    const dim3 g = rms_norm_grid(static_cast<int>(p.get_u64("rows")));
    return {{{"rms_norm", {g.x, g.y, g.z}, {kRmsNormThreads, 1, 1}}}, std::nullopt, {}};
  }
  std::vector<BufferSpec> buffers(const Params& p) const override {
    const auto n = p.get_u64("rows") * p.get_u64("cols");
    return {{"x", BufferRole::input, ElementType::f32, n}, {"y", BufferRole::output, ElementType::f32, n}};
  }
  std::uint64_t bytes_moved(const Params& p) const override { return 8 * p.get_u64("rows") * p.get_u64("cols"); }
  std::vector<SplitPiece> split(const Params& p, const DeviceLimits& l) const override {
    std::vector<SplitPiece> s;
    for (std::uint64_t r = 0, rows = p.get_u64("rows"); r < rows; r += l.max_grid_y)
      s.push_back({"rows", r, std::min(rows, r + l.max_grid_y)});
    return s;
  }
  ComparePolicy compare_policy(const Params&, const std::string&) const override {
    return {true, 0, 0, "rows are independent and each uses one fixed reduction order"};
  }
  void fill_inputs(const Params&, std::uint64_t seed, const BufferSet& b, CUstream s) const override {
    float* x = b.as<float>(0);
    unsigned long long n = b.bytes(0) / 4, sd = seed;
    void* args[] = {&x, &n, &sd};
    device::Launcher().launch_checked(fill_fn(), {"fill", {1024, 1, 1}, {256, 1, 1}}, args, s);
  }
  void launch(const Params& p, const std::string& v, const DeviceLimits& l, const BufferSet& b,
              device::Launcher& launcher, CUstream s) const override {
    run(p, 0, b, launcher, s, plan(p, v, l).launches.front(), false);  // as the user's launcher: unchecked
  }
  void launch_split_reference(const Params& p, const DeviceLimits& l, const BufferSet& b,
                              device::Launcher& launcher, CUstream s) const override {
    for (const SplitPiece& piece : split(p, l)) {
      const dim3 g = rms_norm_grid(static_cast<int>(piece.end - piece.begin));
      run(p, piece.begin, b, launcher, s, {"rms_norm", {g.x, g.y, g.z}, {kRmsNormThreads, 1, 1}}, true);
    }
  }
  std::vector<ReferenceSample> cpu_reference(const Params& p, const BufferSet& b, std::uint64_t,
                                             std::size_t) const override {
    const std::uint64_t cols = p.get_u64("cols"), row = p.get_u64("rows") - 1;  // the last row
    std::vector<float> x(cols);
    b.read(0, row * cols * 4, x.data(), cols * 4);
    double ss = 0;
    for (float v : x) ss += double(v) * v;
    return {{1, row * cols, x[0] / std::sqrt(ss / cols + 1e-6), 1e-5, 1e-6}};
  }

 private:
  static const device::Function& kernel_fn() {
    static const device::Function f = device::Function::from_symbol((const void*)rms_norm_kernel, "rms_norm");
    return f;
  }
  static const device::Function& fill_fn() {
    static const device::Function f = device::Function::from_symbol((const void*)fill, "fill");
    return f;
  }
  void run(const Params& p, std::uint64_t r0, const BufferSet& b, device::Launcher& launcher,
           CUstream s, const LaunchSpec& l, bool checked) const {
    const int cols = static_cast<int>(p.get_u64("cols"));
    const float* x = b.as<float>(0) + r0 * cols;
    float* y = b.as<float>(1) + r0 * cols;
    float eps = 1e-6f;
    int c = cols;
    void* args[] = {&x, &y, &c, &eps};
    checked ? launcher.launch_checked(kernel_fn(), l, args, s) : launcher.launch(kernel_fn(), l, args, s);
  }
};

void register_kernels(Registry& registry) { registry.add(std::make_shared<RmsNorm>()); }

}  // namespace

GRIDFUZZ_PLUGIN(register_kernels)
