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

template <bool Int32Counter>
const device::Function& iota_loop_fn() {
  static const device::Function fn = device::Function::from_symbol(
      reinterpret_cast<const void*>(&iota_loop<Int32Counter>), Int32Counter ? "iota_loop_int" : "iota_loop_u64");
  return fn;
}

LaunchSpec geometry(std::uint64_t n) {
  LaunchSpec l;
  l.name = "iota_loop";
  l.grid = {std::min(ceil_div(n, kThreads), kMaxBlocks), 1, 1};
  l.block = {kThreads, 1, 1};
  return l;
}

// One shape: y is n bytes.
class GridStrideLoopCase final : public BoundCase {
 public:
  GridStrideLoopCase(const Params& p, Variant variant) : n_(p.get_u64("n")), variant_(variant) {}

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
  std::vector<BufferSpec> buffers() const override { return {{"y", BufferRole::output, ElementType::u8, n_}}; }
  // bytes_moved: the default (y written once).
  std::vector<SplitPiece> split(const DeviceLimits&) const override { return pieces_of("n", n_, kReferencePiece); }
  ComparePolicy compare_policy() const override {
    return {true, 0, 0, "a pure function of the element index: bit-exact"};
  }
  void fill_inputs(std::uint64_t, const BufferSet&, CUstream) const override {}
  void launch(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
              CUstream stream) const override {
    std::uint8_t* y = bufs.as<std::uint8_t>("y");
    int n = static_cast<int>(n_);
    std::uint64_t base = 0;
    void* args[] = {&y, &n, &base};
    const LaunchSpec l = plan(limits).launches.front();
    launch_variant(launcher, variant_, iota_loop_fn<true>(), iota_loop_fn<false>(), l, args, stream);
  }
  void launch_split_reference(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
                              CUstream stream) const override {
    for (const SplitPiece& piece : split(limits)) {
      std::uint8_t* y = bufs.as<std::uint8_t>("y") + piece.begin;
      int n = static_cast<int>(piece.end - piece.begin);
      std::uint64_t base = piece.begin;
      void* args[] = {&y, &n, &base};
      launcher.launch_checked(iota_loop_fn<true>(), geometry(piece.end - piece.begin), args, stream);
    }
  }
  std::vector<ReferenceSample> cpu_reference(const BufferSet& bufs, std::uint64_t seed,
                                             std::size_t count) const override {
    return tail_biased_samples(bufs.index_of("y"), n_, 1 << 20, seed, count,
                               [](std::uint64_t e) { return static_cast<double>(byte_at(e, 0)); });
  }

 private:
  std::uint64_t n_;
  Variant variant_;
};

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
  std::unique_ptr<BoundCase> bind(const Params& p, const std::string& variant) const override {
    return std::make_unique<GridStrideLoopCase>(p, parse_legacy_or_fixed(name(), variant));
  }
};

}  // namespace

std::shared_ptr<const Kernel> make_grid_stride_loop() { return std::make_shared<GridStrideLoop>(); }

}  // namespace gridfuzz::selftest
