// selftest.register_pressure: a kernel without __launch_bounds__ that uses more than 64 registers
// per thread, launched at the block size the caller asks for (docs/BUG-CLASSES.md, "B.9":
// UCC #1166, finufft #386, CCCL #6532). It is built with __maxnreg__(72) so its register count is
// known (kLegacyRegisters; ptxas reports 72 for sm_90 and sm_100; a different count moves the
// boundary the GPU self-test observes, so it cannot go unnoticed): registers are allocated per
// warp in units of 256 and warps in groups of 4, so 72 registers allow 28 warps (896 threads) and
// 897 threads need 73,728 > 65,536: refused ("too many resources requested for launch").
// The fixed twin is the same code with __launch_bounds__(1024): at most 64 registers, any block.
#include <algorithm>

#include "gridfuzz/checked_math.hpp"
#include "gridfuzz/device/function.hpp"
#include "selftest_kernels.hpp"
#include "support.hpp"

namespace gridfuzz::selftest {
namespace {

constexpr int kLegacyRegisters = 72;
constexpr int kFixedRegisters = 64;   // the most __launch_bounds__(1024) allows
constexpr int kState = 96;            // live words per thread: more than 64 registers' worth

// A mixing function with kState words live at once (register pressure on purpose).
__device__ __forceinline__ std::uint32_t heavy_mix(std::uint32_t seed_word) {
  std::uint32_t s[kState];
#pragma unroll
  for (int k = 0; k < kState; ++k) s[k] = seed_word * (2u * k + 1u) + 0x9E3779B9u * k;
#pragma unroll
  for (int round = 0; round < 6; ++round) {
#pragma unroll
    for (int k = 0; k < kState; ++k) {
      const std::uint32_t t = s[k] + s[(k + 1) % kState] * 0x85EBCA6Bu;
      s[k] = (t << 13 | t >> 19) ^ s[(k + 7) % kState];
    }
  }
  std::uint32_t h = 0;
#pragma unroll
  for (int k = 0; k < kState; ++k) h ^= s[k] + k;
  return h & 0x7FFFFFFFu;  // never the u32 poison
}

__global__ void __maxnreg__(kLegacyRegisters) mix_unbounded(const std::uint32_t* x, std::uint32_t* y, std::uint64_t n) {
  const std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = heavy_mix(x[i]);
}

__global__ void __launch_bounds__(1024) mix_bounded(const std::uint32_t* x, std::uint32_t* y, std::uint64_t n) {
  const std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = heavy_mix(x[i]);
}

// The same function on the host, for the CPU reference.
std::uint32_t heavy_mix_host(std::uint32_t seed_word) {
  std::uint32_t s[kState];
  for (int k = 0; k < kState; ++k) s[k] = seed_word * (2u * k + 1u) + 0x9E3779B9u * k;
  for (int round = 0; round < 6; ++round)
    for (int k = 0; k < kState; ++k) {
      const std::uint32_t t = s[k] + s[(k + 1) % kState] * 0x85EBCA6Bu;
      s[k] = (t << 13 | t >> 19) ^ s[(k + 7) % kState];
    }
  std::uint32_t h = 0;
  for (int k = 0; k < kState; ++k) h ^= s[k] + k;
  return h & 0x7FFFFFFFu;
}

const device::Function& unbounded_fn() {
  static const device::Function fn =
      device::Function::from_symbol(reinterpret_cast<const void*>(&mix_unbounded), "mix_unbounded");
  return fn;
}
const device::Function& bounded_fn() {
  static const device::Function fn =
      device::Function::from_symbol(reinterpret_cast<const void*>(&mix_bounded), "mix_bounded");
  return fn;
}

// One shape: x and y are n words; the block size is the caller's.
class RegisterPressureCase final : public BoundCase {
 public:
  RegisterPressureCase(const Params& p, Variant variant)
      : threads_(p.get_u64("threads")), n_(p.get_u64("n")), variant_(variant) {}

  LaunchPlan plan(const DeviceLimits&) const override {
    const bool legacy = variant_ == Variant::legacy;
    LaunchPlan plan;
    LaunchSpec l;
    l.name = legacy ? "mix_unbounded" : "mix_bounded";
    l.grid = {ceil_div(n_, threads_), 1, 1};
    l.block = {threads_, 1, 1};
    l.func.num_regs = legacy ? kLegacyRegisters : kFixedRegisters;
    plan.launches.push_back(l);
    plan.indices.push_back({"i", u128{l.grid.x} * threads_ - 1, IndexType::uint64, "elements"});
    return plan;
  }
  std::vector<BufferSpec> buffers() const override {
    return {{"x", BufferRole::input, ElementType::u32, n_}, {"y", BufferRole::output, ElementType::u32, n_}};
  }
  // bytes_moved: the default (x read once, y written once).
  std::vector<SplitPiece> split(const DeviceLimits&) const override {
    return {{"n", 0, n_}};  // one piece: the bounded kernel at 256 threads
  }
  ComparePolicy compare_policy() const override { return {true, 0, 0, "integer mixing: bit-exact"}; }
  void fill_inputs(std::uint64_t seed, const BufferSet& bufs, CUstream stream) const override {
    fill_words(bufs.ptr("x"), n_, seed, stream);
  }
  void launch(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
              CUstream stream) const override {
    const std::uint32_t* x = bufs.as<std::uint32_t>("x");
    std::uint32_t* y = bufs.as<std::uint32_t>("y");
    std::uint64_t n = n_;
    void* args[] = {&x, &y, &n};
    const LaunchSpec l = plan(limits).launches.front();
    launch_variant(launcher, variant_, unbounded_fn(), bounded_fn(), l, args, stream);
  }
  void launch_split_reference(const DeviceLimits&, const BufferSet& bufs, device::Launcher& launcher,
                              CUstream stream) const override {
    const std::uint32_t* x = bufs.as<std::uint32_t>("x");
    std::uint32_t* y = bufs.as<std::uint32_t>("y");
    std::uint64_t n = n_;
    void* args[] = {&x, &y, &n};
    LaunchSpec l;
    l.grid = {ceil_div(n, 256), 1, 1};
    l.block = {256, 1, 1};
    launcher.launch_checked(bounded_fn(), l, args, stream);
  }
  std::vector<ReferenceSample> cpu_reference(const BufferSet& bufs, std::uint64_t seed,
                                             std::size_t count) const override {
    const std::size_t xi = bufs.index_of("x"), yi = bufs.index_of("y");
    SampleSequence pick{seed | 1};
    std::vector<ReferenceSample> out;
    for (std::size_t k = 0; k < count; ++k) {
      const std::uint64_t e = pick.next(n_);
      std::uint32_t x = 0;
      bufs.read(xi, e * sizeof(x), &x, sizeof(x));
      out.push_back({yi, e, static_cast<double>(heavy_mix_host(x)), 0, 0});
    }
    return out;
  }

 private:
  std::uint64_t threads_, n_;
  Variant variant_;
};

class RegisterPressure final : public Kernel {
 public:
  std::string name() const override { return "selftest.register_pressure"; }
  std::string description() const override {
    return "72 registers/thread, no __launch_bounds__: refused from 897 threads per block (B.9)";
  }
  std::vector<std::string> variants() const override { return {"legacy", "fixed"}; }
  std::vector<AxisSpec> axes() const override {
    return {{"threads", "threads per block, as the caller asks", "256", {}, 1, 1024},
            {"n", "elements (u32)", "65536", {}, 1, 1 << 26}};
  }
  std::optional<std::string> check(const Params&) const override { return std::nullopt; }
  std::unique_ptr<BoundCase> bind(const Params& p, const std::string& variant) const override {
    return std::make_unique<RegisterPressureCase>(p, parse_legacy_or_fixed(name(), variant));
  }
};

}  // namespace

std::shared_ptr<const Kernel> make_register_pressure() { return std::make_shared<RegisterPressure>(); }

}  // namespace gridfuzz::selftest
