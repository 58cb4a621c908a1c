#include "torch_alloc_rules.hpp"

namespace gridfuzz::vllm {
namespace {

std::optional<std::uint64_t> round_up(std::uint64_t a, std::uint64_t m) {
  const std::uint64_t r = a % m;
  if (r == 0) return a;
  if (a > UINT64_MAX - (m - r)) return std::nullopt;
  return a + (m - r);
}

}  // namespace

std::optional<std::uint64_t> torch_round_size(std::uint64_t size) {
  if (size < kTorchMinBlockSize) return kTorchMinBlockSize;
  return round_up(size, kTorchMinBlockSize);
}

std::optional<std::uint64_t> torch_segment_size(std::uint64_t rounded) {
  if (rounded <= kTorchSmallSize) return kTorchSmallBuffer;
  if (rounded < kTorchMinLargeAlloc) return kTorchLargeBuffer;
  return round_up(rounded, kTorchRoundLarge);
}

std::optional<TorchAllocation> torch_fresh_allocation(std::uint64_t request) {
  const auto block = torch_round_size(request);
  const auto segment = block ? torch_segment_size(*block) : std::nullopt;
  if (!segment) return std::nullopt;
  return TorchAllocation{*block, *segment, *segment - request};
}

}  // namespace gridfuzz::vllm
