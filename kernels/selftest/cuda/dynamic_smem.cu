// selftest.dynamic_smem: a row cached in dynamic shared memory, cols * 4 bytes
// (docs/BUG-CLASSES.md, "B.8": FlashInfer FusedAddRMSNorm #718, argsort #2361, DeepEP). Variants:
//   legacy  never opts in: refused above 48 KiB (cols > 12288)
//   optin   opts in, no fallback: refused above the opt-in maximum (232,448 B on sm_90: cols > 58112)
//   fixed   opts in when it must, and past the maximum reads the row from global memory
// out[c] = row[c] - row[cols-1-c]: one subtraction per element, so the shared-memory and global
// paths agree bit for bit; the split reference is the global path.
#include <algorithm>
#include <stdexcept>

#include "gridfuzz/checked_math.hpp"
#include "gridfuzz/device/function.hpp"
#include "selftest_kernels.hpp"
#include "support.hpp"

namespace gridfuzz::selftest {
namespace {

constexpr std::uint64_t kThreads = 256;

__global__ void reverse_diff_smem(const float* x, float* y, unsigned cols) {
  extern __shared__ float row_cache[];
  const std::uint64_t row = static_cast<std::uint64_t>(blockIdx.x) * cols;
  for (unsigned c = threadIdx.x; c < cols; c += blockDim.x) row_cache[c] = x[row + c];
  __syncthreads();
  for (unsigned c = threadIdx.x; c < cols; c += blockDim.x) y[row + c] = row_cache[c] - row_cache[cols - 1 - c];
}

__global__ void reverse_diff_global(const float* x, float* y, unsigned cols) {
  const std::uint64_t row = static_cast<std::uint64_t>(blockIdx.x) * cols;
  for (unsigned c = threadIdx.x; c < cols; c += blockDim.x) y[row + c] = x[row + c] - x[row + cols - 1 - c];
}

const device::Function& smem_fn() {
  static const device::Function fn =
      device::Function::from_symbol(reinterpret_cast<const void*>(&reverse_diff_smem), "reverse_diff_smem");
  return fn;
}
const device::Function& global_fn() {
  static const device::Function fn =
      device::Function::from_symbol(reinterpret_cast<const void*>(&reverse_diff_global), "reverse_diff_global");
  return fn;
}

enum class SmemVariant { legacy, optin, fixed };

SmemVariant parse_smem_variant(const std::string& kernel, const std::string& variant) {
  if (variant == "legacy") return SmemVariant::legacy;
  if (variant == "optin") return SmemVariant::optin;
  if (variant == "fixed") return SmemVariant::fixed;
  throw std::invalid_argument(kernel + ": unknown variant '" + variant + "' (legacy, optin, fixed)");
}

// One shape: x and y are [rows][cols] floats.
class DynamicSmemCase final : public BoundCase {
 public:
  DynamicSmemCase(const Params& p, SmemVariant variant)
      : cols_(p.get_u64("cols")), rows_(p.get_u64("rows")), variant_(variant) {}

  LaunchPlan plan(const DeviceLimits& limits) const override {
    const std::uint64_t smem = cols_ * sizeof(float);
    LaunchPlan plan;
    LaunchSpec l;
    l.name = "reverse_diff_smem";
    l.grid = {rows_, 1, 1};
    l.block = {kThreads, 1, 1};
    l.dynamic_smem_bytes = smem;
    l.func.static_smem_bytes = 0;  // only `extern __shared__`
    if (variant_ == SmemVariant::optin) l.smem_optin = true;
    if (variant_ == SmemVariant::fixed) {
      l.smem_optin = smem > limits.smem_per_block;
      if (smem > limits.smem_per_block_optin) {
        l.name = "reverse_diff_global";
        l.dynamic_smem_bytes = 0;
        l.smem_optin = false;
      }
    }
    plan.launches.push_back(l);
    plan.indices.push_back({"x_index", u128{rows_} * cols_ - 1, IndexType::uint64, "elements"});
    plan.host_arguments.push_back({"cols", cols_, IndexType::uint32});  // unsigned cols
    return plan;
  }
  std::vector<BufferSpec> buffers() const override {
    const std::uint64_t n = rows_ * cols_;
    return {{"x", BufferRole::input, ElementType::f32, n}, {"y", BufferRole::output, ElementType::f32, n}};
  }
  // bytes_moved: the default (x read once, y written once).
  std::vector<SplitPiece> split(const DeviceLimits&) const override {
    return {{"rows", 0, rows_}};  // one piece: the global-memory path needs no smem at all
  }
  ComparePolicy compare_policy() const override {
    return {true, 0, 0, "one subtraction per element, same operands on both paths: bit-exact"};
  }
  void fill_inputs(std::uint64_t seed, const BufferSet& bufs, CUstream stream) const override {
    fill_floats(bufs.ptr("x"), rows_ * cols_, seed, stream);
  }
  void launch(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
              CUstream stream) const override {
    const float* x = bufs.as<float>("x");
    float* y = bufs.as<float>("y");
    unsigned cols = static_cast<unsigned>(cols_);
    void* args[] = {&x, &y, &cols};
    const LaunchSpec l = plan(limits).launches.front();
    if (variant_ != SmemVariant::fixed)
      launcher.launch(smem_fn(), l, args, stream);  // upstream: no check
    else
      launcher.launch_checked(l.dynamic_smem_bytes ? smem_fn() : global_fn(), l, args, stream);
  }
  void launch_split_reference(const DeviceLimits&, const BufferSet& bufs, device::Launcher& launcher,
                              CUstream stream) const override {
    const float* x = bufs.as<float>("x");
    float* y = bufs.as<float>("y");
    unsigned cols = static_cast<unsigned>(cols_);
    void* args[] = {&x, &y, &cols};
    LaunchSpec l;
    l.grid = {rows_, 1, 1};
    l.block = {kThreads, 1, 1};
    launcher.launch_checked(global_fn(), l, args, stream);
  }
  std::vector<ReferenceSample> cpu_reference(const BufferSet& bufs, std::uint64_t seed,
                                             std::size_t count) const override {
    const std::size_t x = bufs.index_of("x"), y = bufs.index_of("y");
    SampleSequence pick{seed | 1};
    std::vector<ReferenceSample> out;
    for (std::size_t k = 0; k < count; ++k) {
      const std::uint64_t row = pick.next(rows_), c = pick.next(cols_);
      float a = 0, b = 0;
      bufs.read(x, (row * cols_ + c) * sizeof(float), &a, sizeof(float));
      bufs.read(x, (row * cols_ + cols_ - 1 - c) * sizeof(float), &b, sizeof(float));
      out.push_back({y, row * cols_ + c, static_cast<double>(a - b), 0, 0});
    }
    return out;
  }

 private:
  std::uint64_t cols_, rows_;
  SmemVariant variant_;
};

class DynamicSmem final : public Kernel {
 public:
  std::string name() const override { return "selftest.dynamic_smem"; }
  std::string description() const override {
    return "row cache of cols*4 B in dynamic smem: over 48 KiB without opt-in, over the opt-in maximum (B.8)";
  }
  std::vector<std::string> variants() const override { return {"legacy", "optin", "fixed"}; }
  std::vector<AxisSpec> axes() const override {
    return {{"cols", "floats per row (the row cache)", "1024", {}, 1, 1 << 17},
            {"rows", "rows, one block each", "4", {}, 1, 1024}};
  }
  std::optional<std::string> check(const Params&) const override { return std::nullopt; }
  std::unique_ptr<BoundCase> bind(const Params& p, const std::string& variant) const override {
    return std::make_unique<DynamicSmemCase>(p, parse_smem_variant(name(), variant));
  }
};

}  // namespace

std::shared_ptr<const Kernel> make_dynamic_smem() { return std::make_shared<DynamicSmem>(); }

}  // namespace gridfuzz::selftest
