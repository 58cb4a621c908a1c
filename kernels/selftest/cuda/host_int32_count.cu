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
#include "selftest_kernels.hpp"
#include "shell.hpp"

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

const Symbol kIntCount{&iota_bytes_int, "iota_bytes_int"}, kU64Count{&iota_bytes_u64, "iota_bytes_u64"};

// One shape: y is rows*cols bytes (the count n, exact in 64 bits here).
class HostInt32CountCase final : public BytesCase {
 public:
  HostInt32CountCase(const Params& p, Variant variant)
      : BytesCase(variant, p.get_u64("rows") * p.get_u64("cols"), {kIntCount, kU64Count, kIntCount},
                  p.get_u64("rows") * p.get_u64("cols"), 4096),
        n_(p.get_u64("rows") * p.get_u64("cols")) {}

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
  std::vector<SplitPiece> split(const DeviceLimits&) const override {
    return pieces_of("elements", n_, kReferencePiece);
  }
  // The fixed twin's kernel takes (y, uint64_t n).
  void launch(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
              CUstream stream) const override {
    if (variant_ == Variant::legacy) {
      BytesCase::launch(limits, bufs, launcher, stream);  // upstream never checks
    } else {
      KernelArgs a(bufs.as<std::uint8_t>("y"), n_);
      launcher.launch_checked(function_of(kU64Count), plan(limits).launches.front(), a.get(), stream);
    }
  }

 private:
  // The legacy kernel's (y, int n, base), n as upstream's int (a wrap past 2^31).
  KernelArgs args(const BufferSet& bufs, std::uint64_t begin, std::uint64_t end) const override {
    return KernelArgs(bufs.as<std::uint8_t>("y") + begin, as_int32(end - begin), begin);
  }
  LaunchSpec reference_launch(std::uint64_t n) const override {
    return launch_of({ceil_div(n, kThreads), 1, 1}, {kThreads, 1, 1});
  }

  std::uint64_t n_;
};

}  // namespace

std::shared_ptr<const Kernel> make_host_int32_count() {
  return make_kernel<HostInt32CountCase>(
      {"selftest.host_int32",
       "int n = rows*cols; blocks = (n+255)/256 on the host: negative, zero or truncated grid (B.3)",
       {{"rows", "rows (the count is rows*cols bytes)", "16", {}, 1, 1 << 24},
        {"cols", "bytes per row", "65536", {}, 1, 1 << 20}}});
}

}  // namespace gridfuzz::selftest
