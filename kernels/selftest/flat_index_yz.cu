// selftest.flat_yz: the most common bug class (docs/BUG-CLASSES.md, "B.1"). A row-wise kernel puts
// the row index on grid.z, so more than 65535 rows are refused; the legacy launcher never checks,
// so the output is silently left unwritten. The fixed twin puts rows on grid.x.
#include <algorithm>

#include "gridfuzz/checked_math.hpp"
#include "gridfuzz/device/function.hpp"
#include "selftest_kernels.hpp"
#include "support.hpp"

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

class FlatIndexYZ final : public Kernel {
 public:
  std::string name() const override { return "selftest.flat_yz"; }
  std::string description() const override {
    return "row index on grid.z (legacy, unchecked launch) vs grid.x (fixed): BUG-CLASSES B.1/B.2";
  }
  std::vector<std::string> variants() const override { return {"legacy", "fixed"}; }
  std::vector<AxisSpec> axes() const override {
    return {{"rows", "rows, one block row each", "1024", {}, 1, 1ll << 31},
            {"cols", "columns per row", "64", {}, 1, 1 << 20}};
  }
  std::optional<std::string> check(const Params&) const override { return std::nullopt; }

  LaunchPlan plan(const Params& p, const std::string& variant, const DeviceLimits& limits) const override {
    const std::uint64_t rows = p.get_u64("rows"), cols = p.get_u64("cols");
    const std::uint64_t col_blocks = ceil_div(cols, kThreads);
    LaunchPlan plan;
    LaunchSpec l;
    l.name = "scale_rows";
    l.block = {kThreads, 1, 1};
    if (variant == "legacy") {
      l.grid = {col_blocks, 1, rows};
      plan.launches.push_back(l);
    } else {
      for (std::uint64_t r0 = 0; r0 < rows; r0 += limits.max_grid_x) {
        l.grid = {std::min(limits.max_grid_x, rows - r0), col_blocks, 1};
        plan.launches.push_back(l);
      }
    }
    plan.indices.push_back({"y_index", u128{rows} * cols - 1, IndexType::uint64, "elements"});
    return plan;
  }
  std::vector<BufferSpec> buffers(const Params& p) const override {
    const std::uint64_t n = p.get_u64("rows") * p.get_u64("cols");
    return {{"x", BufferRole::input, ElementType::f32, n}, {"y", BufferRole::output, ElementType::f32, n}};
  }
  std::uint64_t bytes_moved(const Params& p) const override { return 8 * p.get_u64("rows") * p.get_u64("cols"); }
  std::vector<SplitPiece> split(const Params& p, const DeviceLimits& limits) const override {
    return pieces_of("rows", p.get_u64("rows"), limits.max_grid_z);
  }
  ComparePolicy compare_policy(const Params&, const std::string&) const override {
    return {true, 0, 0, "one fma per element, no reduction: bit-exact"};
  }
  void fill_inputs(const Params& p, std::uint64_t seed, const BufferSet& bufs, CUstream stream) const override {
    fill_floats(bufs.ptr(0), p.get_u64("rows") * p.get_u64("cols"), seed, stream);
  }

  void launch(const Params& p, const std::string& variant, const DeviceLimits& limits, const BufferSet& bufs,
              device::Launcher& launcher, CUstream stream) const override {
    const bool legacy = variant == "legacy";
    static const device::Function on_z = device::Function::from_symbol(reinterpret_cast<const void*>(&scale_rows<true>), "scale_rows_z");
    static const device::Function on_x = device::Function::from_symbol(reinterpret_cast<const void*>(&scale_rows<false>), "scale_rows_x");
    const float* x = bufs.as<float>(0);
    float* y = bufs.as<float>(1);
    std::uint64_t cols = p.get_u64("cols"), offset = 0;
    for (const LaunchSpec& l : plan(p, variant, limits).launches) {
      void* args[] = {&x, &y, &cols, &offset};
      if (legacy) {
        launcher.launch(on_z, l, args, stream);  // upstream never looks at the result
      } else {
        launcher.launch_checked(on_x, l, args, stream);
        offset += l.grid.x;
      }
    }
  }
  void launch_split_reference(const Params& p, const DeviceLimits& limits, const BufferSet& bufs,
                              device::Launcher& launcher, CUstream stream) const override {
    static const device::Function on_z = device::Function::from_symbol(reinterpret_cast<const void*>(&scale_rows<true>), "scale_rows_z");
    const float* x = bufs.as<float>(0);
    float* y = bufs.as<float>(1);
    std::uint64_t cols = p.get_u64("cols");
    for (const SplitPiece& piece : split(p, limits)) {
      std::uint64_t offset = piece.begin;
      void* args[] = {&x, &y, &cols, &offset};
      LaunchSpec l;
      l.block = {kThreads, 1, 1};
      l.grid = {ceil_div(cols, kThreads), 1, piece.end - piece.begin};
      launcher.launch_checked(on_z, l, args, stream);
    }
  }
  std::vector<ReferenceSample> cpu_reference(const Params& p, const BufferSet& bufs, std::uint64_t seed,
                                             std::size_t count) const override {
    // Half the samples in the last row, where a geometry bug shows first.
    const std::uint64_t cols = p.get_u64("cols");
    return tail_biased_samples(1, p.get_u64("rows") * cols, cols, seed, count,
                               [&](std::uint64_t e) { return two_x_plus_one(bufs, e); });
  }
};

}  // namespace

std::shared_ptr<const Kernel> make_flat_index_yz() { return std::make_shared<FlatIndexYZ>(); }

}  // namespace gridfuzz::selftest
