// selftest.block_threads: block = (16, heads), one thread row per head (docs/BUG-CLASSES.md, "B.7":
// LMCache #4154 KV transfer, tokenspeed merge_state). From heads = 65 the block has more than 1024
// threads and the launch is refused. The fixed twin caps block.y at 64 and loops over heads.
#include <algorithm>

#include "gridfuzz/checked_math.hpp"
#include "gridfuzz/device/function.hpp"
#include "selftest_kernels.hpp"
#include "support.hpp"

namespace gridfuzz::selftest {
namespace {

constexpr std::uint64_t kLanes = 16;
constexpr std::uint64_t kMaxHeadsPerBlock = 64;

// y = 2x + 1 over [tokens][heads][16]; head = head_begin + threadIdx.y (+ blockDim.y steps when looping).
template <bool LoopOverHeads>
__global__ void per_head(const float* x, float* y, unsigned heads, unsigned head_begin, unsigned head_end) {
  const std::uint64_t token = blockIdx.x;
  for (unsigned h = head_begin + threadIdx.y; h < head_end; h += LoopOverHeads ? blockDim.y : head_end) {
    const std::uint64_t i = (token * heads + h) * kLanes + threadIdx.x;
    y[i] = 2.0f * x[i] + 1.0f;
  }
}

class BlockThreads final : public Kernel {
 public:
  std::string name() const override { return "selftest.block_threads"; }
  std::string description() const override { return "block (16, heads): over 1024 threads from 65 heads (B.7)"; }
  std::vector<std::string> variants() const override { return {"legacy", "fixed"}; }
  std::vector<AxisSpec> axes() const override {
    return {{"heads", "heads, one block.y row each (legacy)", "8", {}, 1, 1024},
            {"tokens", "tokens, one block each", "64", {}, 1, 65536}};
  }
  std::optional<std::string> check(const Params&) const override { return std::nullopt; }

  LaunchPlan plan(const Params& p, const std::string& variant, const DeviceLimits&) const override {
    const std::uint64_t heads = p.get_u64("heads"), tokens = p.get_u64("tokens");
    LaunchPlan plan;
    LaunchSpec l;
    l.name = "per_head";
    l.grid = {tokens, 1, 1};
    l.block = {kLanes, variant == "legacy" ? heads : std::min(heads, kMaxHeadsPerBlock), 1};
    plan.launches.push_back(l);
    plan.indices.push_back({"x_index", u128{tokens} * heads * kLanes - 1, IndexType::uint64, "elements"});
    return plan;
  }
  std::vector<BufferSpec> buffers(const Params& p) const override {
    const std::uint64_t n = p.get_u64("tokens") * p.get_u64("heads") * kLanes;
    return {{"x", BufferRole::input, ElementType::f32, n}, {"y", BufferRole::output, ElementType::f32, n}};
  }
  std::uint64_t bytes_moved(const Params& p) const override {
    return 8 * p.get_u64("tokens") * p.get_u64("heads") * kLanes;
  }
  // The same kernel over groups of at most 64 heads.
  std::vector<SplitPiece> split(const Params& p, const DeviceLimits&) const override {
    return pieces_of("heads", p.get_u64("heads"), kMaxHeadsPerBlock);
  }
  ComparePolicy compare_policy(const Params&, const std::string&) const override {
    return {true, 0, 0, "one fma per element: bit-exact"};
  }
  void fill_inputs(const Params& p, std::uint64_t seed, const BufferSet& bufs, CUstream stream) const override {
    fill_floats(bufs.ptr(0), buffers(p)[0].elements, seed, stream);
  }
  void launch(const Params& p, const std::string& variant, const DeviceLimits& limits, const BufferSet& bufs,
              device::Launcher& launcher, CUstream stream) const override {
    const float* x = bufs.as<float>(0);
    float* y = bufs.as<float>(1);
    unsigned heads = static_cast<unsigned>(p.get_u64("heads")), begin = 0, end = heads;
    void* args[] = {&x, &y, &heads, &begin, &end};
    const LaunchSpec l = plan(p, variant, limits).launches.front();
    launch_variant(launcher, variant, function<false>(), function<true>(), l, args, stream);
  }
  void launch_split_reference(const Params& p, const DeviceLimits& limits, const BufferSet& bufs,
                              device::Launcher& launcher, CUstream stream) const override {
    const float* x = bufs.as<float>(0);
    float* y = bufs.as<float>(1);
    unsigned heads = static_cast<unsigned>(p.get_u64("heads"));
    for (const SplitPiece& piece : split(p, limits)) {
      unsigned begin = static_cast<unsigned>(piece.begin), end = static_cast<unsigned>(piece.end);
      void* args[] = {&x, &y, &heads, &begin, &end};
      LaunchSpec l;
      l.grid = {p.get_u64("tokens"), 1, 1};
      l.block = {kLanes, piece.end - piece.begin, 1};
      launcher.launch_checked(function<false>(), l, args, stream);
    }
  }
  std::vector<ReferenceSample> cpu_reference(const Params& p, const BufferSet& bufs, std::uint64_t seed,
                                             std::size_t count) const override {
    // Half the samples in the last token.
    return tail_biased_samples(1, buffers(p)[1].elements, p.get_u64("heads") * kLanes, seed, count,
                               [&](std::uint64_t e) { return two_x_plus_one(bufs, e); });
  }

 private:
  template <bool LoopOverHeads>
  static const device::Function& function() {
    static const device::Function fn = device::Function::from_symbol(
        reinterpret_cast<const void*>(&per_head<LoopOverHeads>), LoopOverHeads ? "per_head_loop" : "per_head");
    return fn;
  }
};

}  // namespace

std::shared_ptr<const Kernel> make_block_threads() { return std::make_shared<BlockThreads>(); }

}  // namespace gridfuzz::selftest
