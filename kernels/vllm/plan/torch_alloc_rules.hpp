#pragma once
// How torch's CUDA caching allocator sizes the tensors vLLM hands its GGUF ops (the weights, the
// activations, the ids, and what the ops allocate themselves: the q8_1 scratch and the output,
// gguf_kernel.cu's new_empty / new_zeros), as pure host arithmetic with the default configuration
// (no roundup_power2_divisions, no expandable segments). Nothing here is torch code. Checked 64-bit
// arithmetic: a size that does not fit is nullopt.
//
// Sources: the constants from torch 2.11.0's c10/core/AllocatorConfig.h:16-25 (the wheel's header,
// pip-downloaded); round_size and get_allocation_size from pytorch's c10/cuda/CUDACachingAllocator.cpp
// (commit 001074d, read through the code index: the functions `round_size` and
// `get_allocation_size`; kLargeBuffer at :48-49). The wheel ships no .cpp, so those two are named by
// function, not line. docs/upstream/vllm-gguf.md, "Allocation".
//
// Not wired into the vllm.* adapters: see that section (the harness's 4 KiB guard after every
// buffer already holds torch's block rounding; no vLLM fault finding depends on slack).
#include <cstdint>
#include <optional>

namespace gridfuzz::vllm {

inline constexpr std::uint64_t kTorchMinBlockSize = 512;       // AllocatorConfig.h:18-19
inline constexpr std::uint64_t kTorchSmallSize = 1048576;      // :20-21, the largest "small" request
inline constexpr std::uint64_t kTorchSmallBuffer = 2097152;    // :16-17, a small segment
inline constexpr std::uint64_t kTorchMinLargeAlloc = 10485760; // :22-23
inline constexpr std::uint64_t kTorchRoundLarge = 2097152;     // :24-25
inline constexpr std::uint64_t kTorchLargeBuffer = 20971520;   // CUDACachingAllocator.cpp:48-49

// round_size: below 512 bytes, 512; else a multiple of 512 (roundup_power2_divisions is off by
// default). The block a request is given.
std::optional<std::uint64_t> torch_round_size(std::uint64_t size);

// get_allocation_size of a rounded size: the cudaMalloc'd segment a fresh allocator makes for it:
// 2 MiB up to 1 MiB, 20 MiB below 10 MiB, else rounded up to 2 MiB.
std::optional<std::uint64_t> torch_segment_size(std::uint64_t rounded);

// A request in a fresh allocator: its block, its segment, and the bytes readable past the
// request's end before unmapped memory (the rest of the segment: free, or later blocks).
struct TorchAllocation {
  std::uint64_t block = 0, segment = 0, readable_after = 0;
};
std::optional<TorchAllocation> torch_fresh_allocation(std::uint64_t request);

}  // namespace gridfuzz::vllm
