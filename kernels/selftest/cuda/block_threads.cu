// selftest.block_threads: block = (16, heads), one thread row per head (docs/BUG-CLASSES.md, "B.7":
// LMCache #4154 KV transfer, tokenspeed merge_state). From heads = 65 the block has more than 1024
// threads and the launch is refused. The fixed twin caps block.y at 64 and loops over heads.
#include <algorithm>

#include "gridfuzz/checked_math.hpp"
#include "selftest_kernels.hpp"
#include "shell.hpp"

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

const Symbol kPerHead{&per_head<false>, "per_head"}, kPerHeadLoop{&per_head<true>, "per_head_loop"};

// One shape: x and y are [tokens][heads][16] floats; split along heads.
class BlockThreadsCase final : public FloatsCase<> {
 public:
  BlockThreadsCase(const Params& p, Variant variant)
      : FloatsCase(variant, p.get_u64("heads"), {kPerHead, kPerHeadLoop, kPerHead}, "one fma per element: bit-exact",
                   p.get_u64("tokens") * p.get_u64("heads") * kLanes,
                   p.get_u64("heads") * kLanes),  // tail: half the samples in the last token
        heads_(p.get_u64("heads")), tokens_(p.get_u64("tokens")) {}

  LaunchPlan plan(const DeviceLimits&) const override {
    LaunchPlan plan;
    const std::uint64_t block_y = variant_ == Variant::legacy ? heads_ : std::min(heads_, kMaxHeadsPerBlock);
    plan.launches.push_back(launch_of({tokens_, 1, 1}, {kLanes, block_y, 1}, "per_head"));
    plan.indices.push_back({"x_index", u128{tokens_} * heads_ * kLanes - 1, IndexType::uint64, "elements"});
    plan.host_arguments.push_back({"heads", heads_, IndexType::uint32});  // unsigned heads
    return plan;
  }
  // The same kernel over groups of at most 64 heads.
  std::vector<SplitPiece> split(const DeviceLimits&) const override {
    return pieces_of("heads", heads_, kMaxHeadsPerBlock);
  }

 private:
  KernelArgs args(const BufferSet& bufs, std::uint64_t begin, std::uint64_t end) const override {
    return KernelArgs(bufs.as<const float>("x"), bufs.as<float>("y"), static_cast<unsigned>(heads_),
                      static_cast<unsigned>(begin), static_cast<unsigned>(end));
  }
  LaunchSpec reference_launch(std::uint64_t heads) const override {
    return launch_of({tokens_, 1, 1}, {kLanes, heads, 1});
  }

  std::uint64_t heads_, tokens_;
};

}  // namespace

std::shared_ptr<const Kernel> make_block_threads() {
  return make_kernel<BlockThreadsCase>(
      {"selftest.block_threads", "block (16, heads): over 1024 threads from 65 heads (B.7)",
       {{"heads", "heads, one block.y row each (legacy)", "8", {}, 1, 1024},
        {"tokens", "tokens, one block each", "64", {}, 1, 65536}}});
}

}  // namespace gridfuzz::selftest
