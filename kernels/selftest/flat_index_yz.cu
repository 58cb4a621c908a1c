// selftest.flat_yz: the most common bug class (BUG-CLASSES.md B.1). A row-wise kernel puts the
// row index on grid.z, so more than 65535 rows are refused; the legacy launcher never checks, so
// the output is silently left unwritten. The fixed twin puts rows on grid.x.
#include <algorithm>

#include "gridfuzz/checked_math.hpp"
#include "gridfuzz/device/function.hpp"
#include "selftest_kernels.hpp"

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

__global__ void fill_inputs_kernel(float* x, std::uint64_t n, std::uint64_t seed) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    std::uint64_t h = (i + 1) * 0x9E3779B97F4A7C15ull ^ seed;
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 29;
    x[i] = 0.5f + static_cast<float>(h >> 40) / static_cast<float>(1ull << 24);  // [0.5, 1.5): never zero
  }
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
    std::vector<SplitPiece> pieces;
    const std::uint64_t rows = p.get_u64("rows");
    for (std::uint64_t r0 = 0; r0 < rows; r0 += limits.max_grid_z)
      pieces.push_back({"rows", r0, std::min(rows, r0 + limits.max_grid_z)});
    return pieces;
  }
  ComparePolicy compare_policy(const Params&, const std::string&) const override {
    return {true, 0, 0, "one fma per element, no reduction: bit-exact"};
  }
  void fill_inputs(const Params& p, std::uint64_t seed, const BufferSet& bufs, CUstream stream) const override {
    static const device::Function fn = device::Function::from_symbol(reinterpret_cast<const void*>(&fill_inputs_kernel), "fill_inputs");
    float* x = bufs.as<float>(0);
    std::uint64_t n = p.get_u64("rows") * p.get_u64("cols");
    void* args[] = {&x, &n, &seed};
    LaunchSpec l;
    l.grid = {std::min<std::uint64_t>(ceil_div(n, 256), 4096), 1, 1};
    l.block = {256, 1, 1};
    device::Launcher launcher;
    launcher.launch_checked(fn, l, args, stream);
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
    const std::uint64_t n = p.get_u64("rows") * p.get_u64("cols");
    std::vector<ReferenceSample> out;
    std::uint64_t h = seed | 1;
    for (std::size_t k = 0; k < count; ++k) {
      h = h * 6364136223846793005ull + 1442695040888963407ull;
      // Half the samples in the last row, where a geometry bug shows first.
      const std::uint64_t cols = p.get_u64("cols");
      const std::uint64_t e = k % 2 ? n - 1 - (h >> 33) % cols : (h >> 11) % n;
      float x = 0;
      bufs.read(0, e * sizeof(float), &x, sizeof(float));
      // 2x is exact in float, so the kernel's fp32 result is 2x+1 rounded once: compare exactly.
      out.push_back({1, e, static_cast<double>(static_cast<float>(2.0 * x + 1.0)), 0, 0});
    }
    return out;
  }
};

}  // namespace

std::shared_ptr<const Kernel> make_flat_index_yz() { return std::make_shared<FlatIndexYZ>(); }

}  // namespace gridfuzz::selftest
