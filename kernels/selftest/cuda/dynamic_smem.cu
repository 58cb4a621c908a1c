// selftest.dynamic_smem: a row cached in dynamic shared memory, cols * 4 bytes
// (docs/BUG-CLASSES.md, "B.8": FlashInfer FusedAddRMSNorm #718, argsort #2361, DeepEP). Variants:
//   legacy  never opts in: refused above 48 KiB (cols > 12288)
//   optin   opts in, no fallback: refused above the opt-in maximum (232,448 B on sm_90: cols > 58112)
//   fixed   opts in when it must, and past the maximum reads the row from global memory
// out[c] = row[c] - row[cols-1-c]: one subtraction per element, so the shared-memory and global
// paths agree bit for bit; the split reference is the global path.
#include <algorithm>

#include "gridfuzz/checked_math.hpp"
#include "selftest_kernels.hpp"
#include "shell.hpp"

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

const Symbol kSmem{&reverse_diff_smem, "reverse_diff_smem"}, kGlobal{&reverse_diff_global, "reverse_diff_global"};

// The variants, in the order of variants().
enum class SmemVariant { legacy, optin, fixed };

// One shape: x and y are [rows][cols] floats.
class DynamicSmemCase final : public FloatsCase<SmemVariant> {
 public:
  DynamicSmemCase(const Params& p, SmemVariant variant)
      : FloatsCase(variant, p.get_u64("rows"), {kSmem, kSmem, kGlobal},
                   "one subtraction per element, same operands on both paths: bit-exact",
                   p.get_u64("rows") * p.get_u64("cols"), 0),  // tail: none, cpu_reference is its own
        cols_(p.get_u64("cols")), rows_(p.get_u64("rows")) {}

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
  std::vector<SplitPiece> split(const DeviceLimits&) const override {
    return {{"rows", 0, rows_}};  // one piece: the global-memory path needs no smem at all
  }
  // legacy and optin as upstream (no check); the fixed twin on the path its plan chose.
  void launch(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
              CUstream stream) const override {
    KernelArgs a = args(bufs, 0, rows_);
    const LaunchSpec l = plan(limits).launches.front();
    if (variant_ != SmemVariant::fixed)
      launcher.launch(function_of(kSmem), l, a.get(), stream);
    else
      launcher.launch_checked(function_of(l.dynamic_smem_bytes ? kSmem : kGlobal), l, a.get(), stream);
  }
  std::vector<ReferenceSample> cpu_reference(const BufferSet& bufs, std::uint64_t seed,
                                             std::size_t count) const override {
    const std::size_t x = bufs.index_of("x"), y = bufs.index_of("y");
    return samples_of(seed, count, [&](SampleSequence& pick, std::size_t) {
      const std::uint64_t row = pick.next(rows_), c = pick.next(cols_);
      float a = 0, b = 0;
      bufs.read(x, (row * cols_ + c) * sizeof(float), &a, sizeof(float));
      bufs.read(x, (row * cols_ + cols_ - 1 - c) * sizeof(float), &b, sizeof(float));
      return ReferenceSample{y, row * cols_ + c, static_cast<double>(a - b), 0, 0};
    });
  }

 private:
  KernelArgs args(const BufferSet& bufs, std::uint64_t, std::uint64_t) const override {
    return KernelArgs(bufs.as<const float>("x"), bufs.as<float>("y"), static_cast<unsigned>(cols_));
  }
  LaunchSpec reference_launch(std::uint64_t rows) const override { return launch_of({rows, 1, 1}, {kThreads, 1, 1}); }

  std::uint64_t cols_, rows_;
};

}  // namespace

std::shared_ptr<const Kernel> make_dynamic_smem() {
  return make_kernel<DynamicSmemCase, SmemVariant>(
      {"selftest.dynamic_smem",
       "row cache of cols*4 B in dynamic smem: over 48 KiB without opt-in, over the opt-in maximum (B.8)",
       {{"cols", "floats per row (the row cache)", "1024", {}, 1, 1 << 17},
        {"rows", "rows, one block each", "4", {}, 1, 1024}},
       {"legacy", "optin", "fixed"}});
}

}  // namespace gridfuzz::selftest
