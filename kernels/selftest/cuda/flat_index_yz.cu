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

template <bool RowsOnZ>
const device::Function& scale_rows_fn() {
  static const device::Function fn = device::Function::from_symbol(
      reinterpret_cast<const void*>(&scale_rows<RowsOnZ>), RowsOnZ ? "scale_rows_z" : "scale_rows_x");
  return fn;
}

// One shape: x and y are [rows][cols] floats.
class FlatIndexYZCase final : public BoundCase {
 public:
  FlatIndexYZCase(const Params& p, Variant variant)
      : rows_(p.get_u64("rows")), cols_(p.get_u64("cols")), variant_(variant) {}

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
  std::vector<BufferSpec> buffers() const override {
    const std::uint64_t n = rows_ * cols_;
    return {{"x", BufferRole::input, ElementType::f32, n}, {"y", BufferRole::output, ElementType::f32, n}};
  }
  // bytes_moved: the default (x read once, y written once).
  std::vector<SplitPiece> split(const DeviceLimits& limits) const override {
    return pieces_of("rows", rows_, limits.max_grid_z);
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
    std::uint64_t cols = cols_, offset = 0;
    for (const LaunchSpec& l : plan(limits).launches) {
      void* args[] = {&x, &y, &cols, &offset};
      if (variant_ == Variant::legacy) {
        launcher.launch(scale_rows_fn<true>(), l, args, stream);  // upstream never looks at the result
      } else {
        launcher.launch_checked(scale_rows_fn<false>(), l, args, stream);
        offset += l.grid.x;
      }
    }
  }
  void launch_split_reference(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
                              CUstream stream) const override {
    const float* x = bufs.as<float>("x");
    float* y = bufs.as<float>("y");
    std::uint64_t cols = cols_;
    for (const SplitPiece& piece : split(limits)) {
      std::uint64_t offset = piece.begin;
      void* args[] = {&x, &y, &cols, &offset};
      LaunchSpec l;
      l.block = {kThreads, 1, 1};
      l.grid = {ceil_div(cols, kThreads), 1, piece.end - piece.begin};
      launcher.launch_checked(scale_rows_fn<true>(), l, args, stream);
    }
  }
  std::vector<ReferenceSample> cpu_reference(const BufferSet& bufs, std::uint64_t seed,
                                             std::size_t count) const override {
    // Half the samples in the last row, where a geometry bug shows first.
    return tail_biased_samples(bufs.index_of("y"), rows_ * cols_, cols_, seed, count,
                               [&](std::uint64_t e) { return two_x_plus_one(bufs, e); });
  }

 private:
  std::uint64_t rows_, cols_;
  Variant variant_;
};

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
  std::unique_ptr<BoundCase> bind(const Params& p, const std::string& variant) const override {
    return std::make_unique<FlatIndexYZCase>(p, parse_legacy_or_fixed(name(), variant));
  }
};

}  // namespace

std::shared_ptr<const Kernel> make_flat_index_yz() { return std::make_shared<FlatIndexYZ>(); }

}  // namespace gridfuzz::selftest
