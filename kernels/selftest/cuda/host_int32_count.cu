// selftest.host_int32: an element count and block count worked out in int32 on the host
// (docs/BUG-CLASSES.md, "B.3"; bitsandbytes #1782, candle #3604, multi_tensor_apply). The legacy
// launcher does what the upstream code does:
//     int n = rows * cols;  int blocks = (n + 255) / 256;  kernel<<<blocks, 256>>>(y, n);
// so from n + 255 >= 2^31 the block count is negative (a grid.x over 2^31-1 once converted to
// unsigned: refused), at n = 2^32 it is 0 (grid.zero: refused), and just past 2^32 it is small and
// positive: accepted, and only a prefix is written (unwritten). The fixed twin counts in 64 bits
// and uses a grid-stride loop. Output-only (bytes), so 2^32 elements cost 4 GiB. The plan declares
// the count the kernel is passed as a host argument (`int n`; the fixed twin's is 64-bit), so the
// prediction also names it (arg:n) once n >= 2^31; n_plus_255, declared first, wraps from
// n = 2^31 - 255 and stays the reported wrap.
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

const device::Function& legacy_fn() {
  static const device::Function fn =
      device::Function::from_symbol(reinterpret_cast<const void*>(&iota_bytes_int), "iota_bytes_int");
  return fn;
}
const device::Function& fixed_fn() {
  static const device::Function fn =
      device::Function::from_symbol(reinterpret_cast<const void*>(&iota_bytes_u64), "iota_bytes_u64");
  return fn;
}

// One shape: y is rows*cols bytes (the count n, exact in 64 bits here).
class HostInt32CountCase final : public BoundCase {
 public:
  HostInt32CountCase(const Params& p, Variant variant)
      : n_(p.get_u64("rows") * p.get_u64("cols")), variant_(variant) {}

  LaunchPlan plan(const DeviceLimits& limits) const override {
    LaunchPlan plan;
    LaunchSpec l;
    l.block = {kThreads, 1, 1};
    if (variant_ == Variant::legacy) {
      const std::int32_t n32 = as_int32(n_);
      const std::int32_t blocks = as_int32(static_cast<std::uint32_t>(n32) + 255u) / 256;
      l.name = "iota_bytes_int";
      l.grid = {static_cast<std::uint32_t>(blocks), 1, 1};  // dim3 takes unsigned int
      plan.indices.push_back({"n_plus_255", u128{n_} + 255, IndexType::int32, "elements"});
      plan.host_arguments.push_back({"n", n_, IndexType::int32});  // kernel(y, int n, ...)
    } else {
      l.name = "iota_bytes_u64";
      l.grid = {std::min(ceil_div(n_, kThreads), limits.max_grid_x), 1, 1};
      plan.indices.push_back({"i", u128{n_} - 1, IndexType::uint64, "elements"});
      plan.host_arguments.push_back({"n", n_, IndexType::uint64});  // kernel(y, uint64_t n)
    }
    plan.launches.push_back(l);
    return plan;
  }
  std::vector<BufferSpec> buffers() const override { return {{"y", BufferRole::output, ElementType::u8, n_}}; }
  // bytes_moved: the default (y written once).
  std::vector<SplitPiece> split(const DeviceLimits&) const override {
    return pieces_of("elements", n_, kReferencePiece);
  }
  ComparePolicy compare_policy() const override {
    return {true, 0, 0, "a pure function of the element index: bit-exact"};
  }
  void fill_inputs(std::uint64_t, const BufferSet&, CUstream) const override {}
  void launch(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
              CUstream stream) const override {
    const LaunchSpec l = plan(limits).launches.front();
    std::uint8_t* y = bufs.as<std::uint8_t>("y");
    if (variant_ == Variant::legacy) {
      int n = as_int32(n_);
      std::uint64_t base = 0;
      void* args[] = {&y, &n, &base};
      launcher.launch(legacy_fn(), l, args, stream);  // upstream never checks
    } else {
      std::uint64_t n = n_;
      void* args[] = {&y, &n};
      launcher.launch_checked(fixed_fn(), l, args, stream);
    }
  }
  void launch_split_reference(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
                              CUstream stream) const override {
    for (const SplitPiece& piece : split(limits)) {
      std::uint8_t* y = bufs.as<std::uint8_t>("y") + piece.begin;
      int n = static_cast<int>(piece.end - piece.begin);
      std::uint64_t base = piece.begin;
      void* args[] = {&y, &n, &base};
      LaunchSpec l;
      l.block = {kThreads, 1, 1};
      l.grid = {ceil_div(piece.end - piece.begin, kThreads), 1, 1};
      launcher.launch_checked(legacy_fn(), l, args, stream);
    }
  }
  std::vector<ReferenceSample> cpu_reference(const BufferSet& bufs, std::uint64_t seed,
                                             std::size_t count) const override {
    return tail_biased_samples(bufs.index_of("y"), n_, 4096, seed, count,
                               [](std::uint64_t e) { return static_cast<double>(byte_at(e, 0)); });
  }

 private:
  std::uint64_t n_;
  Variant variant_;
};

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
  std::unique_ptr<BoundCase> bind(const Params& p, const std::string& variant) const override {
    return std::make_unique<HostInt32CountCase>(p, parse_legacy_or_fixed(name(), variant));
  }
};

}  // namespace

std::shared_ptr<const Kernel> make_host_int32_count() { return std::make_shared<HostInt32Count>(); }

}  // namespace gridfuzz::selftest
