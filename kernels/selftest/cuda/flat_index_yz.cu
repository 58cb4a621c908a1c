// selftest.flat_yz: the most common bug class (docs/BUG-CLASSES.md, "B.1"). A row-wise kernel puts
// the row index on grid.z, so more than 65535 rows are refused; the legacy launcher never checks,
// so the output is silently left unwritten. The fixed twin puts rows on grid.x.
#include <algorithm>

#include "gridfuzz/checked_math.hpp"
#include "selftest_kernels.hpp"
#include "shell.hpp"

namespace gridfuzz::selftest {
namespace {

constexpr std::uint64_t kThreads = 256;

// y = 2x + 1 over one row; the row comes from blockIdx.z (legacy) or blockIdx.x (fixed).
template <bool RowsOnZ>
__global__ void scale_rows(const float* x, float* y, std::uint64_t cols, std::uint64_t row_offset) {
  const std::uint64_t row = row_offset + (RowsOnZ ? blockIdx.z : blockIdx.x);
  const std::uint64_t col = static_cast<std::uint64_t>(RowsOnZ ? blockIdx.x : blockIdx.y) * blockDim.x + threadIdx.x;
  if (col >= cols) return;
  const std::uint64_t i = row * cols + col;
  y[i] = 2.0f * x[i] + 1.0f;
}

const Symbol kRowsOnZ{&scale_rows<true>, "scale_rows_z"}, kRowsOnX{&scale_rows<false>, "scale_rows_x"};

// One shape: x and y are [rows][cols] floats.
class FlatIndexYZCase final : public FloatsCase<> {
 public:
  FlatIndexYZCase(const Params& p, Variant variant)
      : FloatsCase(variant, p.get_u64("rows"), {kRowsOnZ, kRowsOnX, kRowsOnZ},
                   "one fma per element, no reduction: bit-exact",
                   p.get_u64("rows") * p.get_u64("cols"),
                   p.get_u64("cols")),  // tail: half the samples in the last row, where a geometry bug shows first
        rows_(p.get_u64("rows")), cols_(p.get_u64("cols")) {}

  LaunchPlan plan(const DeviceLimits& limits) const override {
    const std::uint64_t col_blocks = ceil_div(cols_, kThreads);
    LaunchPlan plan;
    LaunchSpec l;
    l.name = "scale_rows";
    l.block = {kThreads, 1, 1};
    if (variant_ == Variant::legacy) {
      l.grid = {col_blocks, 1, rows_};
      plan.launches.push_back(l);
    } else {
      for (std::uint64_t r0 = 0; r0 < rows_; r0 += limits.max_grid_x) {
        l.grid = {std::min(limits.max_grid_x, rows_ - r0), col_blocks, 1};
        plan.launches.push_back(l);
      }
    }
    plan.indices.push_back({"y_index", u128{rows_} * cols_ - 1, IndexType::uint64, "elements"});
    return plan;
  }
  std::vector<SplitPiece> split(const DeviceLimits& limits) const override {
    return pieces_of("rows", rows_, limits.max_grid_z);
  }
  // The fixed twin's plan has a launch per max_grid_x rows, each from the row the last one ended at.
  void launch(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
              CUstream stream) const override {
    std::uint64_t row = 0;
    for (const LaunchSpec& l : plan(limits).launches) {
      KernelArgs a = args(bufs, row, rows_);
      if (variant_ == Variant::legacy) {
        launcher.launch(function_of(kRowsOnZ), l, a.get(), stream);  // upstream never looks at the result
      } else {
        launcher.launch_checked(function_of(kRowsOnX), l, a.get(), stream);
        row += l.grid.x;
      }
    }
  }

 private:
  // Rows from `begin` on (the kernel takes its row offset, the pointers stay at row 0).
  KernelArgs args(const BufferSet& bufs, std::uint64_t begin, std::uint64_t) const override {
    return KernelArgs(bufs.as<const float>("x"), bufs.as<float>("y"), cols_, begin);
  }
  LaunchSpec reference_launch(std::uint64_t rows) const override {
    return launch_of({ceil_div(cols_, kThreads), 1, rows}, {kThreads, 1, 1});
  }

  std::uint64_t rows_, cols_;
};

}  // namespace

std::shared_ptr<const Kernel> make_flat_index_yz() {
  return make_kernel<FlatIndexYZCase>(
      {"selftest.flat_yz", "row index on grid.z (legacy, unchecked launch) vs grid.x (fixed): BUG-CLASSES B.1/B.2",
       {{"rows", "rows, one block row each", "1024", {}, 1, 1ll << 31},
        {"cols", "columns per row", "64", {}, 1, 1 << 20}}});
}

}  // namespace gridfuzz::selftest
