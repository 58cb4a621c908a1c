// selftest.grid_stride_loop: `for (int i = ...; i < n; i += blockDim.x * gridDim.x)` with a capped
// grid (docs/BUG-CLASSES.md, "B.6": CUDA_KERNEL_LOOP #24818, randint #141613, cuDF #10344). n fits
// in int32, but once n - 1 + stride >= 2^31 the last step of the loop overflows: i goes negative,
// is still < n, and the kernel writes below its output (illegal address). The first failing n is
// 2^31 - stride + 1, just below 2^31, which checks of "n >= 2^31" miss. Fixed: a 64-bit counter.
#include <algorithm>

#include "gridfuzz/checked_math.hpp"
#include "selftest_kernels.hpp"
#include "shell.hpp"

namespace gridfuzz::selftest {
namespace {

constexpr std::uint64_t kThreads = 256;
constexpr std::uint64_t kMaxBlocks = 4096;  // the capped grid: stride 2^20 once n is large
constexpr std::uint64_t kReferencePiece = 1ull << 30;

template <bool Int32Counter>
__global__ void iota_loop(std::uint8_t* y, int n, std::uint64_t base) {
  if constexpr (Int32Counter) {
    const int stride = static_cast<int>(blockDim.x * gridDim.x);
    // i += stride, wrapping as int arithmetic does in practice (made defined through unsigned).
    for (int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); i < n;
         i = static_cast<int>(static_cast<unsigned>(i) + static_cast<unsigned>(stride)))
      y[i] = byte_at(base + static_cast<std::uint64_t>(static_cast<std::int64_t>(i)), 0);
  } else {
    const std::uint64_t stride = static_cast<std::uint64_t>(blockDim.x) * gridDim.x;
    for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
         i < static_cast<std::uint64_t>(n); i += stride)
      y[i] = byte_at(base + i, 0);
  }
}

const Symbol kInt32Counter{&iota_loop<true>, "iota_loop_int"}, kU64Counter{&iota_loop<false>, "iota_loop_u64"};

LaunchSpec geometry(std::uint64_t n) {
  return launch_of({std::min(ceil_div(n, kThreads), kMaxBlocks), 1, 1}, {kThreads, 1, 1}, "iota_loop");
}

// One shape: y is n bytes.
class GridStrideLoopCase final : public BytesCase {
 public:
  GridStrideLoopCase(const Params& p, Variant variant)
      : BytesCase(variant, p.get_u64("n"), {kInt32Counter, kU64Counter, kInt32Counter}, p.get_u64("n"), 1 << 20),
        n_(p.get_u64("n")) {}

  LaunchPlan plan(const DeviceLimits&) const override {
    LaunchPlan plan;
    plan.launches.push_back(geometry(n_));
    const std::uint64_t stride = plan.launches.front().grid.x * kThreads;
    // The largest value the counter takes: the last element's index plus one stride.
    plan.indices.push_back({"loop_counter", u128{n_} - 1 + stride,
                            variant_ == Variant::legacy ? IndexType::int32 : IndexType::uint64, "elements"});
    plan.host_arguments.push_back({"n", n_, IndexType::int32});  // both kernels take `int n`, as upstream
    return plan;
  }
  std::vector<SplitPiece> split(const DeviceLimits&) const override { return pieces_of("n", n_, kReferencePiece); }

 private:
  KernelArgs args(const BufferSet& bufs, std::uint64_t begin, std::uint64_t end) const override {
    return KernelArgs(bufs.as<std::uint8_t>("y") + begin, static_cast<int>(end - begin), begin);
  }
  LaunchSpec reference_launch(std::uint64_t n) const override { return geometry(n); }

  std::uint64_t n_;
};

}  // namespace

std::shared_ptr<const Kernel> make_grid_stride_loop() {
  return make_kernel<GridStrideLoopCase>(
      {"selftest.grid_stride_loop", "int grid-stride loop counter overflows from n = 2^31 - stride + 1 (B.6)",
       {{"n", "elements (bytes), an int as upstream", "1048576", {}, 1, 2147483647}}});
}

}  // namespace gridfuzz::selftest
