// selftest.dropped_rows: the silent version of the grid.y limit (docs/BUG-CLASSES.md, "B.2";
// rocBLAS PR #9184, and every "clamp y" fix without its loop). The legacy launcher keeps grid.y
// within the device limit by clamping it, but the kernel still takes its row from blockIdx.y alone:
// the launch is accepted, returns no error, and rows from 65535 on are never written. No launch
// record shows it; only the poisoned output that survives does (unwritten). The fixed twin loops
// over rows.
#include <algorithm>

#include "gridfuzz/checked_math.hpp"
#include "selftest_kernels.hpp"
#include "shell.hpp"

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

const Symbol kOneRow{&scale_rows_y<false>, "scale_rows_y"}, kRowLoop{&scale_rows_y<true>, "scale_rows_y_loop"};

// One shape: x and y are [rows][cols] floats.
class DroppedRowsCase final : public FloatsCase<> {
 public:
  DroppedRowsCase(const Params& p, Variant variant)
      : FloatsCase(variant, p.get_u64("rows"), {kOneRow, kRowLoop, kOneRow},
                   "one fma per element, no reduction: bit-exact",
                   p.get_u64("rows") * p.get_u64("cols"),
                   p.get_u64("cols")),  // tail: half the samples in the last row, where the dropped rows are
        rows_(p.get_u64("rows")), cols_(p.get_u64("cols")) {}

  // Both variants launch the same geometry; only the kernel (loop or not) differs.
  LaunchPlan plan(const DeviceLimits& limits) const override {
    LaunchPlan plan;
    const std::uint64_t grid_y = std::min(rows_, limits.max_grid_y);  // "keep y within the limit"
    plan.launches.push_back(launch_of({ceil_div(cols_, kThreads), grid_y, 1}, {kThreads, 1, 1}, "scale_rows_y"));
    plan.indices.push_back({"y_index", u128{rows_} * cols_ - 1, IndexType::uint64, "elements"});
    return plan;
  }
  std::vector<SplitPiece> split(const DeviceLimits& limits) const override {
    return pieces_of("rows", rows_, limits.max_grid_y);
  }

 private:
  KernelArgs args(const BufferSet& bufs, std::uint64_t begin, std::uint64_t end) const override {
    return KernelArgs(bufs.as<const float>("x") + begin * cols_, bufs.as<float>("y") + begin * cols_, cols_,
                      end - begin);
  }
  LaunchSpec reference_launch(std::uint64_t rows) const override {
    return launch_of({ceil_div(cols_, kThreads), rows, 1}, {kThreads, 1, 1});
  }

  std::uint64_t rows_, cols_;
};

}  // namespace

std::shared_ptr<const Kernel> make_dropped_rows() {
  return make_kernel<DroppedRowsCase>(
      {"selftest.dropped_rows",
       "rows on grid.y, clamped to the limit without a loop: rows past 65535 silently unwritten (B.2)",
       {{"rows", "rows, one grid.y index each", "1024", {}, 1, 1 << 24},
        {"cols", "columns per row", "64", {}, 1, 4096}}});
}

}  // namespace gridfuzz::selftest
