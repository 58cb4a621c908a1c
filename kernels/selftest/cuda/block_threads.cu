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

template <bool LoopOverHeads>
const device::Function& per_head_fn() {
  static const device::Function fn = device::Function::from_symbol(
      reinterpret_cast<const void*>(&per_head<LoopOverHeads>), LoopOverHeads ? "per_head_loop" : "per_head");
  return fn;
}

// One shape: x and y are [tokens][heads][16] floats.
class BlockThreadsCase final : public BoundCase {
 public:
  BlockThreadsCase(const Params& p, Variant variant)
      : heads_(p.get_u64("heads")), tokens_(p.get_u64("tokens")), variant_(variant) {}

  LaunchPlan plan(const DeviceLimits&) const override {
    LaunchPlan plan;
    LaunchSpec l;
    l.name = "per_head";
    l.grid = {tokens_, 1, 1};
    l.block = {kLanes, variant_ == Variant::legacy ? heads_ : std::min(heads_, kMaxHeadsPerBlock), 1};
    plan.launches.push_back(l);
    plan.indices.push_back({"x_index", u128{tokens_} * heads_ * kLanes - 1, IndexType::uint64, "elements"});
    plan.host_arguments.push_back({"heads", heads_, IndexType::uint32});  // unsigned heads
    return plan;
  }
  std::vector<BufferSpec> buffers() const override {
    const std::uint64_t n = tokens_ * heads_ * kLanes;
    return {{"x", BufferRole::input, ElementType::f32, n}, {"y", BufferRole::output, ElementType::f32, n}};
  }
  // bytes_moved: the default (x read once, y written once).
  // The same kernel over groups of at most 64 heads.
  std::vector<SplitPiece> split(const DeviceLimits&) const override {
    return pieces_of("heads", heads_, kMaxHeadsPerBlock);
  }
  ComparePolicy compare_policy() const override { return {true, 0, 0, "one fma per element: bit-exact"}; }
  void fill_inputs(std::uint64_t seed, const BufferSet& bufs, CUstream stream) const override {
    fill_floats(bufs.ptr("x"), tokens_ * heads_ * kLanes, seed, stream);
  }
  void launch(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
              CUstream stream) const override {
    const float* x = bufs.as<float>("x");
    float* y = bufs.as<float>("y");
    unsigned heads = static_cast<unsigned>(heads_), begin = 0, end = heads;
    void* args[] = {&x, &y, &heads, &begin, &end};
    const LaunchSpec l = plan(limits).launches.front();
    launch_variant(launcher, variant_, per_head_fn<false>(), per_head_fn<true>(), l, args, stream);
  }
  void launch_split_reference(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
                              CUstream stream) const override {
    const float* x = bufs.as<float>("x");
    float* y = bufs.as<float>("y");
    unsigned heads = static_cast<unsigned>(heads_);
    for (const SplitPiece& piece : split(limits)) {
      unsigned begin = static_cast<unsigned>(piece.begin), end = static_cast<unsigned>(piece.end);
      void* args[] = {&x, &y, &heads, &begin, &end};
      LaunchSpec l;
      l.grid = {tokens_, 1, 1};
      l.block = {kLanes, piece.end - piece.begin, 1};
      launcher.launch_checked(per_head_fn<false>(), l, args, stream);
    }
  }
  std::vector<ReferenceSample> cpu_reference(const BufferSet& bufs, std::uint64_t seed,
                                             std::size_t count) const override {
    // Half the samples in the last token.
    return tail_biased_samples(bufs.index_of("y"), tokens_ * heads_ * kLanes, heads_ * kLanes, seed, count,
                               [&](std::uint64_t e) { return two_x_plus_one(bufs, e); });
  }

 private:
  std::uint64_t heads_, tokens_;
  Variant variant_;
};

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
  std::unique_ptr<BoundCase> bind(const Params& p, const std::string& variant) const override {
    return std::make_unique<BlockThreadsCase>(p, parse_legacy_or_fixed(name(), variant));
  }
};

}  // namespace

std::shared_ptr<const Kernel> make_block_threads() { return std::make_shared<BlockThreads>(); }

}  // namespace gridfuzz::selftest
