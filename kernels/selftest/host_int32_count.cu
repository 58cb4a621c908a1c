// selftest.host_int32: an element count and block count worked out in int32 on the host
// (docs/BUG-CLASSES.md, "B.3"; bitsandbytes #1782, candle #3604, multi_tensor_apply). The legacy
// launcher does what the upstream code does:
//     int n = rows * cols;  int blocks = (n + 255) / 256;  kernel<<<blocks, 256>>>(y, n);
// so from n + 255 >= 2^31 the block count is negative (a grid.x over 2^31-1 once converted to
// unsigned: refused), at n = 2^32 it is 0 (grid.zero: refused), and just past 2^32 it is small and
// positive: accepted, and only a prefix is written (unwritten). The fixed twin counts in 64 bits
// and uses a grid-stride loop. Output-only (bytes), so 2^32 elements cost 4 GiB.
#include <algorithm>

#include "gridfuzz/checked_math.hpp"
#include "gridfuzz/device/function.hpp"
#include "selftest_kernels.hpp"
#include "support.hpp"

namespace gridfuzz::selftest {
namespace {

constexpr std::uint64_t kThreads = 256;
constexpr std::uint64_t kReferencePiece = 1ull << 30;

// y[i] = byte_at(base + i), for i < n (int, as upstream).
__global__ void iota_bytes_int(std::uint8_t* y, int n, std::uint64_t base) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) y[i] = byte_at(base + static_cast<std::uint64_t>(i), 0);
}

__global__ void iota_bytes_u64(std::uint8_t* y, std::uint64_t n) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    y[i] = byte_at(i, 0);
}

// Two's-complement int32 arithmetic as the upstream host code performs it (a wrap, made explicit
// here because signed overflow is undefined in C++).
std::int32_t as_int32(std::uint64_t v) { return static_cast<std::int32_t>(static_cast<std::uint32_t>(v)); }

class HostInt32Count final : public Kernel {
 public:
  std::string name() const override { return "selftest.host_int32"; }
  std::string description() const override {
    return "int n = rows*cols; blocks = (n+255)/256 on the host: negative, zero or truncated grid (B.3)";
  }
  std::vector<std::string> variants() const override { return {"legacy", "fixed"}; }
  std::vector<AxisSpec> axes() const override {
    return {{"rows", "rows (the count is rows*cols bytes)", "16", {}, 1, 1 << 24},
            {"cols", "bytes per row", "65536", {}, 1, 1 << 20}};
  }
  std::optional<std::string> check(const Params&) const override { return std::nullopt; }

  LaunchPlan plan(const Params& p, const std::string& variant, const DeviceLimits& limits) const override {
    const std::uint64_t n = p.get_u64("rows") * p.get_u64("cols");
    LaunchPlan plan;
    LaunchSpec l;
    l.block = {kThreads, 1, 1};
    if (variant == "legacy") {
      const std::int32_t n32 = as_int32(n);
      const std::int32_t blocks = as_int32(static_cast<std::uint32_t>(n32) + 255u) / 256;
      l.name = "iota_bytes_int";
      l.grid = {static_cast<std::uint32_t>(blocks), 1, 1};  // dim3 takes unsigned int
      plan.indices.push_back({"n_plus_255", u128{n} + 255, IndexType::int32, "elements"});
    } else {
      l.name = "iota_bytes_u64";
      l.grid = {std::min(ceil_div(n, kThreads), limits.max_grid_x), 1, 1};
      plan.indices.push_back({"i", u128{n} - 1, IndexType::uint64, "elements"});
    }
    plan.launches.push_back(l);
    return plan;
  }
  std::vector<BufferSpec> buffers(const Params& p) const override {
    return {{"y", BufferRole::output, ElementType::u8, p.get_u64("rows") * p.get_u64("cols")}};
  }
  std::uint64_t bytes_moved(const Params& p) const override { return p.get_u64("rows") * p.get_u64("cols"); }
  std::vector<SplitPiece> split(const Params& p, const DeviceLimits&) const override {
    return pieces_of("elements", p.get_u64("rows") * p.get_u64("cols"), kReferencePiece);
  }
  ComparePolicy compare_policy(const Params&, const std::string&) const override {
    return {true, 0, 0, "a pure function of the element index: bit-exact"};
  }
  void fill_inputs(const Params&, std::uint64_t, const BufferSet&, CUstream) const override {}
  void launch(const Params& p, const std::string& variant, const DeviceLimits& limits, const BufferSet& bufs,
              device::Launcher& launcher, CUstream stream) const override {
    const LaunchSpec l = plan(p, variant, limits).launches.front();
    std::uint8_t* y = bufs.as<std::uint8_t>(0);
    if (variant == "legacy") {
      int n = as_int32(p.get_u64("rows") * p.get_u64("cols"));
      std::uint64_t base = 0;
      void* args[] = {&y, &n, &base};
      launcher.launch(legacy_fn(), l, args, stream);  // upstream never checks
    } else {
      std::uint64_t n = p.get_u64("rows") * p.get_u64("cols");
      void* args[] = {&y, &n};
      launcher.launch_checked(fixed_fn(), l, args, stream);
    }
  }
  void launch_split_reference(const Params& p, const DeviceLimits& limits, const BufferSet& bufs,
                              device::Launcher& launcher, CUstream stream) const override {
    for (const SplitPiece& piece : split(p, limits)) {
      std::uint8_t* y = bufs.as<std::uint8_t>(0) + piece.begin;
      int n = static_cast<int>(piece.end - piece.begin);
      std::uint64_t base = piece.begin;
      void* args[] = {&y, &n, &base};
      LaunchSpec l;
      l.block = {kThreads, 1, 1};
      l.grid = {ceil_div(piece.end - piece.begin, kThreads), 1, 1};
      launcher.launch_checked(legacy_fn(), l, args, stream);
    }
  }
  std::vector<ReferenceSample> cpu_reference(const Params& p, const BufferSet&, std::uint64_t seed,
                                             std::size_t count) const override {
    return tail_biased_samples(0, p.get_u64("rows") * p.get_u64("cols"), 4096, seed, count,
                               [](std::uint64_t e) { return static_cast<double>(byte_at(e, 0)); });
  }

 private:
  static const device::Function& legacy_fn() {
    static const device::Function fn =
        device::Function::from_symbol(reinterpret_cast<const void*>(&iota_bytes_int), "iota_bytes_int");
    return fn;
  }
  static const device::Function& fixed_fn() {
    static const device::Function fn =
        device::Function::from_symbol(reinterpret_cast<const void*>(&iota_bytes_u64), "iota_bytes_u64");
    return fn;
  }
};

}  // namespace

std::shared_ptr<const Kernel> make_host_int32_count() { return std::make_shared<HostInt32Count>(); }

}  // namespace gridfuzz::selftest
