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

template <bool LoopOverRows>
const device::Function& scale_rows_y_fn() {
  static const device::Function fn = device::Function::from_symbol(
      reinterpret_cast<const void*>(&scale_rows_y<LoopOverRows>), LoopOverRows ? "scale_rows_y_loop" : "scale_rows_y");
  return fn;
}

// One shape: x and y are [rows][cols] floats.
class DroppedRowsCase final : public BoundCase {
 public:
  DroppedRowsCase(const Params& p, Variant variant)
      : rows_(p.get_u64("rows")), cols_(p.get_u64("cols")), variant_(variant) {}

  // Both variants launch the same geometry; only the kernel (loop or not) differs.
  LaunchPlan plan(const DeviceLimits& limits) const override {
    LaunchPlan plan;
    LaunchSpec l;
    l.name = "scale_rows_y";
    l.block = {kThreads, 1, 1};
    l.grid = {ceil_div(cols_, kThreads), std::min(rows_, limits.max_grid_y), 1};  // "keep y within the limit"
    plan.launches.push_back(l);
    plan.indices.push_back({"y_index", u128{rows_} * cols_ - 1, IndexType::uint64, "elements"});
    return plan;
  }
  std::vector<BufferSpec> buffers() const override {
    const std::uint64_t n = rows_ * cols_;
    return {{"x", BufferRole::input, ElementType::f32, n}, {"y", BufferRole::output, ElementType::f32, n}};
  }
  // bytes_moved: the default (x read once, y written once).
  std::vector<SplitPiece> split(const DeviceLimits& limits) const override {
    return pieces_of("rows", rows_, limits.max_grid_y);
  }
  ComparePolicy compare_policy() const override {
    return {true, 0, 0, "one fma per element, no reduction: bit-exact"};
  }
  void fill_inputs(std::uint64_t seed, const BufferSet& bufs, CUstream stream) const override {
    fill_floats(bufs.ptr("x"), rows_ * cols_, seed, stream);
  }
  void launch(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
              CUstream stream) const override {
    const float* x = bufs.as<float>("x");
    float* y = bufs.as<float>("y");
    std::uint64_t cols = cols_, rows = rows_;
    void* args[] = {&x, &y, &cols, &rows};
    const LaunchSpec l = plan(limits).launches.front();
    launch_variant(launcher, variant_, scale_rows_y_fn<false>(), scale_rows_y_fn<true>(), l, args, stream);
  }
  void launch_split_reference(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
                              CUstream stream) const override {
    std::uint64_t cols = cols_;
    for (const SplitPiece& piece : split(limits)) {
      const float* x = bufs.as<float>("x") + piece.begin * cols;
      float* y = bufs.as<float>("y") + piece.begin * cols;
      std::uint64_t rows = piece.end - piece.begin;
      void* args[] = {&x, &y, &cols, &rows};
      LaunchSpec l;
      l.block = {kThreads, 1, 1};
      l.grid = {ceil_div(cols, kThreads), rows, 1};
      launcher.launch_checked(scale_rows_y_fn<false>(), l, args, stream);
    }
  }
  std::vector<ReferenceSample> cpu_reference(const BufferSet& bufs, std::uint64_t seed,
                                             std::size_t count) const override {
    // Half the samples in the last row, where the dropped rows are.
    return tail_biased_samples(bufs.index_of("y"), rows_ * cols_, cols_, seed, count,
                               [&](std::uint64_t e) { return two_x_plus_one(bufs, e); });
  }

 private:
  std::uint64_t rows_, cols_;
  Variant variant_;
};

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
  std::unique_ptr<BoundCase> bind(const Params& p, const std::string& variant) const override {
    return std::make_unique<DroppedRowsCase>(p, parse_legacy_or_fixed(name(), variant));
  }
};

}  // namespace

std::shared_ptr<const Kernel> make_dropped_rows() { return std::make_shared<DroppedRows>(); }

}  // namespace gridfuzz::selftest
