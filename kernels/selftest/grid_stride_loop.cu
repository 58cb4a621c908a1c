// selftest.grid_stride_loop: `for (int i = ...; i < n; i += blockDim.x * gridDim.x)` with a capped
// grid (docs/BUG-CLASSES.md, "B.6": CUDA_KERNEL_LOOP #24818, randint #141613, cuDF #10344). n fits
// in int32, but once n - 1 + stride >= 2^31 the last step of the loop overflows: i goes negative,
// is still < n, and the kernel writes below its output (illegal address). The first failing n is
// 2^31 - stride + 1, just below 2^31, which checks of "n >= 2^31" miss. Fixed: a 64-bit counter.
#include <algorithm>

#include "gridfuzz/checked_math.hpp"
#include "gridfuzz/device/function.hpp"
#include "selftest_kernels.hpp"
#include "support.hpp"

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

class GridStrideLoop final : public Kernel {
 public:
  std::string name() const override { return "selftest.grid_stride_loop"; }
  std::string description() const override {
    return "int grid-stride loop counter overflows from n = 2^31 - stride + 1 (B.6)";
  }
  std::vector<std::string> variants() const override { return {"legacy", "fixed"}; }
  std::vector<AxisSpec> axes() const override {
    return {{"n", "elements (bytes), an int as upstream", "1048576", {}, 1, 2147483647}};
  }
  std::optional<std::string> check(const Params&) const override { return std::nullopt; }

  static LaunchSpec geometry(std::uint64_t n) {
    LaunchSpec l;
    l.name = "iota_loop";
    l.grid = {std::min(ceil_div(n, kThreads), kMaxBlocks), 1, 1};
    l.block = {kThreads, 1, 1};
    return l;
  }
  LaunchPlan plan(const Params& p, const std::string& variant, const DeviceLimits&) const override {
    const std::uint64_t n = p.get_u64("n");
    LaunchPlan plan;
    plan.launches.push_back(geometry(n));
    const std::uint64_t stride = plan.launches.front().grid.x * kThreads;
    // The largest value the counter takes: the last element's index plus one stride.
    plan.indices.push_back({"loop_counter", u128{n} - 1 + stride,
                            variant == "legacy" ? IndexType::int32 : IndexType::uint64, "elements"});
    return plan;
  }
  std::vector<BufferSpec> buffers(const Params& p) const override {
    return {{"y", BufferRole::output, ElementType::u8, p.get_u64("n")}};
  }
  std::uint64_t bytes_moved(const Params& p) const override { return p.get_u64("n"); }
  std::vector<SplitPiece> split(const Params& p, const DeviceLimits&) const override {
    return pieces_of("n", p.get_u64("n"), kReferencePiece);
  }
  ComparePolicy compare_policy(const Params&, const std::string&) const override {
    return {true, 0, 0, "a pure function of the element index: bit-exact"};
  }
  void fill_inputs(const Params&, std::uint64_t, const BufferSet&, CUstream) const override {}
  void launch(const Params& p, const std::string& variant, const DeviceLimits& limits, const BufferSet& bufs,
              device::Launcher& launcher, CUstream stream) const override {
    std::uint8_t* y = bufs.as<std::uint8_t>(0);
    int n = static_cast<int>(p.get_u64("n"));
    std::uint64_t base = 0;
    void* args[] = {&y, &n, &base};
    const LaunchSpec l = plan(p, variant, limits).launches.front();
    launch_variant(launcher, variant, function<true>(), function<false>(), l, args, stream);
  }
  void launch_split_reference(const Params& p, const DeviceLimits& limits, const BufferSet& bufs,
                              device::Launcher& launcher, CUstream stream) const override {
    for (const SplitPiece& piece : split(p, limits)) {
      std::uint8_t* y = bufs.as<std::uint8_t>(0) + piece.begin;
      int n = static_cast<int>(piece.end - piece.begin);
      std::uint64_t base = piece.begin;
      void* args[] = {&y, &n, &base};
      launcher.launch_checked(function<true>(), geometry(piece.end - piece.begin), args, stream);
    }
  }
  std::vector<ReferenceSample> cpu_reference(const Params& p, const BufferSet&, std::uint64_t seed,
                                             std::size_t count) const override {
    return tail_biased_samples(0, p.get_u64("n"), 1 << 20, seed, count,
                               [](std::uint64_t e) { return static_cast<double>(byte_at(e, 0)); });
  }

 private:
  template <bool Int32Counter>
  static const device::Function& function() {
    static const device::Function fn = device::Function::from_symbol(
        reinterpret_cast<const void*>(&iota_loop<Int32Counter>), Int32Counter ? "iota_loop_int" : "iota_loop_u64");
    return fn;
  }
};

}  // namespace

std::shared_ptr<const Kernel> make_grid_stride_loop() { return std::make_shared<GridStrideLoop>(); }

}  // namespace gridfuzz::selftest
