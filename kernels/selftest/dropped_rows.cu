// selftest.dropped_rows: the silent version of the grid.y limit (docs/BUG-CLASSES.md, "B.2";
// rocBLAS PR #9184, and every "clamp y" fix without its loop). The legacy launcher keeps grid.y
// within the device limit by clamping it, but the kernel still takes its row from blockIdx.y alone:
// the launch is accepted, returns no error, and rows from 65535 on are never written. No launch
// record shows it; only the poisoned output that survives does (unwritten). The fixed twin loops
// over rows.
#include <algorithm>

#include "gridfuzz/checked_math.hpp"
#include "gridfuzz/device/function.hpp"
#include "selftest_kernels.hpp"
#include "support.hpp"

namespace gridfuzz::selftest {
namespace {

constexpr std::uint64_t kThreads = 256;

// y = 2x + 1; the row is blockIdx.y (legacy), or every gridDim.y-th row from it (fixed).
template <bool LoopOverRows>
__global__ void scale_rows_y(const float* x, float* y, std::uint64_t cols, std::uint64_t rows) {
  const std::uint64_t col = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (col >= cols) return;
  for (std::uint64_t row = blockIdx.y; row < rows; row += LoopOverRows ? gridDim.y : rows) {
    const std::uint64_t i = row * cols + col;
    y[i] = 2.0f * x[i] + 1.0f;
  }
}

class DroppedRows final : public Kernel {
 public:
  std::string name() const override { return "selftest.dropped_rows"; }
  std::string description() const override {
    return "rows on grid.y, clamped to the limit without a loop: rows past 65535 silently unwritten (B.2)";
  }
  std::vector<std::string> variants() const override { return {"legacy", "fixed"}; }
  std::vector<AxisSpec> axes() const override {
    return {{"rows", "rows, one grid.y index each", "1024", {}, 1, 1 << 24},
            {"cols", "columns per row", "64", {}, 1, 4096}};
  }
  std::optional<std::string> check(const Params&) const override { return std::nullopt; }

  LaunchPlan plan(const Params& p, const std::string&, const DeviceLimits& limits) const override {
    const std::uint64_t rows = p.get_u64("rows"), cols = p.get_u64("cols");
    LaunchPlan plan;
    LaunchSpec l;
    l.name = "scale_rows_y";
    l.block = {kThreads, 1, 1};
    l.grid = {ceil_div(cols, kThreads), std::min(rows, limits.max_grid_y), 1};  // "keep y within the limit"
    plan.launches.push_back(l);
    plan.indices.push_back({"y_index", u128{rows} * cols - 1, IndexType::uint64, "elements"});
    return plan;
  }
  std::vector<BufferSpec> buffers(const Params& p) const override {
    const std::uint64_t n = p.get_u64("rows") * p.get_u64("cols");
    return {{"x", BufferRole::input, ElementType::f32, n}, {"y", BufferRole::output, ElementType::f32, n}};
  }
  std::uint64_t bytes_moved(const Params& p) const override { return 8 * p.get_u64("rows") * p.get_u64("cols"); }
  std::vector<SplitPiece> split(const Params& p, const DeviceLimits& limits) const override {
    return pieces_of("rows", p.get_u64("rows"), limits.max_grid_y);
  }
  ComparePolicy compare_policy(const Params&, const std::string&) const override {
    return {true, 0, 0, "one fma per element, no reduction: bit-exact"};
  }
  void fill_inputs(const Params& p, std::uint64_t seed, const BufferSet& bufs, CUstream stream) const override {
    fill_floats(bufs.ptr(0), p.get_u64("rows") * p.get_u64("cols"), seed, stream);
  }
  void launch(const Params& p, const std::string& variant, const DeviceLimits& limits, const BufferSet& bufs,
              device::Launcher& launcher, CUstream stream) const override {
    const float* x = bufs.as<float>(0);
    float* y = bufs.as<float>(1);
    std::uint64_t cols = p.get_u64("cols"), rows = p.get_u64("rows");
    void* args[] = {&x, &y, &cols, &rows};
    const LaunchSpec l = plan(p, variant, limits).launches.front();
    launch_variant(launcher, variant, function<false>(), function<true>(), l, args, stream);
  }
  void launch_split_reference(const Params& p, const DeviceLimits& limits, const BufferSet& bufs,
                              device::Launcher& launcher, CUstream stream) const override {
    std::uint64_t cols = p.get_u64("cols");
    for (const SplitPiece& piece : split(p, limits)) {
      const float* x = bufs.as<float>(0) + piece.begin * cols;
      float* y = bufs.as<float>(1) + piece.begin * cols;
      std::uint64_t rows = piece.end - piece.begin;
      void* args[] = {&x, &y, &cols, &rows};
      LaunchSpec l;
      l.block = {kThreads, 1, 1};
      l.grid = {ceil_div(cols, kThreads), rows, 1};
      launcher.launch_checked(function<false>(), l, args, stream);
    }
  }
  std::vector<ReferenceSample> cpu_reference(const Params& p, const BufferSet& bufs, std::uint64_t seed,
                                             std::size_t count) const override {
    // Half the samples in the last row, where the dropped rows are.
    const std::uint64_t cols = p.get_u64("cols");
    return tail_biased_samples(1, p.get_u64("rows") * cols, cols, seed, count,
                               [&](std::uint64_t e) { return two_x_plus_one(bufs, e); });
  }

 private:
  template <bool LoopOverRows>
  static const device::Function& function() {
    static const device::Function fn = device::Function::from_symbol(
        reinterpret_cast<const void*>(&scale_rows_y<LoopOverRows>), LoopOverRows ? "scale_rows_y_loop" : "scale_rows_y");
    return fn;
  }
};

}  // namespace

std::shared_ptr<const Kernel> make_dropped_rows() { return std::make_shared<DroppedRows>(); }

}  // namespace gridfuzz::selftest
