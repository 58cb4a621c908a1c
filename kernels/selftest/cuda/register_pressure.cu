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
#include "selftest_kernels.hpp"
#include "shell.hpp"

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

const Symbol kUnbounded{&mix_unbounded, "mix_unbounded"}, kBounded{&mix_bounded, "mix_bounded"};

// One shape: x and y are n words; the block size is the caller's.
class RegisterPressureCase final : public SelftestCase<> {
 public:
  RegisterPressureCase(const Params& p, Variant variant)
      : SelftestCase(variant, p.get_u64("n"), {kUnbounded, kBounded, kBounded}, "integer mixing: bit-exact"),
        threads_(p.get_u64("threads")), n_(p.get_u64("n")) {}

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
  void fill_inputs(std::uint64_t seed, const BufferSet& bufs, CUstream stream) const override {
    fill_words(bufs.ptr("x"), n_, seed, stream);
  }
  std::vector<ReferenceSample> cpu_reference(const BufferSet& bufs, std::uint64_t seed,
                                             std::size_t count) const override {
    const std::size_t xi = bufs.index_of("x"), yi = bufs.index_of("y");
    return samples_of(seed, count, [&](SampleSequence& pick, std::size_t) {
      const std::uint64_t e = pick.next(n_);
      std::uint32_t x = 0;
      bufs.read(xi, e * sizeof(x), &x, sizeof(x));
      return ReferenceSample{yi, e, static_cast<double>(heavy_mix_host(x)), 0, 0};
    });
  }

 private:
  KernelArgs args(const BufferSet& bufs, std::uint64_t, std::uint64_t) const override {
    return KernelArgs(bufs.as<const std::uint32_t>("x"), bufs.as<std::uint32_t>("y"), n_);
  }
  LaunchSpec reference_launch(std::uint64_t n) const override {
    return launch_of({ceil_div(n, 256), 1, 1}, {256, 1, 1});
  }

  std::uint64_t threads_, n_;
};

}  // namespace

std::shared_ptr<const Kernel> make_register_pressure() {
  return make_kernel<RegisterPressureCase>(
      {"selftest.register_pressure",
       "72 registers/thread, no __launch_bounds__: refused from 897 threads per block (B.9)",
       {{"threads", "threads per block, as the caller asks", "256", {}, 1, 1024},
        {"n", "elements (u32)", "65536", {}, 1, 1 << 26}}});
}

}  // namespace gridfuzz::selftest
