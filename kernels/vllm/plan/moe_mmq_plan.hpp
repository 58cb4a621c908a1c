#pragma once
// What vLLM's MoE MMQ call (ggml_moe_a8, gguf_kernel.cu:292-394: q8_1 quantize, then
// moe_<type> from moe.cuh) launches, as upstream's host code computes it, and the `chunked` fix.
// vLLM takes this path for more than 64 tokens when both weight types have MMQ kernels
// (quantization/fused_moe.py:56-59), with routing sorted by moe_align_block_size. Pure host code.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "../cuda/upstream_kernels.hpp"
#include "call_shape.hpp"  // kernels/gguf/plan: the call shape the GGUF family shares
#include "gridfuzz/device_limits.hpp"
#include "gridfuzz/index_range.hpp"
#include "quantize_plan.hpp"

namespace gridfuzz::vllm {

// The buffer sizes vLLM's moe_align_block_size allocates for `pairs` routed (token, slot) pairs
// over `experts` experts in blocks of `block` (the kernel's MOE_X): sorted_token_ids holds
// max_padded entries (pairs + experts*(block-1), or pairs*block when pairs < experts), and
// expert_ids one per block.
struct AlignedRoutingSizes {
  std::uint64_t max_padded = 0, blocks = 0;
};
AlignedRoutingSizes aligned_routing_sizes(std::uint64_t pairs, std::uint64_t experts, std::uint64_t block);

// One launch of moe_<type><scalar_t, need_check>: geometry, where its sorted ids and expert ids
// start (elements), and its int arguments.
struct MoeMmqLaunch {
  LaunchSpec spec;
  bool need_check = false;
  std::uint64_t sorted_offset = 0, expert_ids_offset = 0;
  int exp_stride = 0, ncols_x = 0, nrows_x = 0, ncols_y = 0, nrows_y = 0, nrows_dst = 0, top_k = 1;
};

struct MoeMmqCall {
  std::vector<QuantizeLaunch> quantize;
  std::vector<MoeMmqLaunch> mmq;
  std::vector<IndexRange> indices;
  std::optional<std::string> host_error;
};

// `max_blocks_y`: the chunked fix's blocks per launch (the device's grid.y limit; the split
// reference passes a smaller one). Ignored by `upstream`.
MoeMmqCall moe_mmq_call(MoeVecVariant v, const gguf::MoeCallShape& s, const UpstreamConstants& c,
                        std::uint64_t max_blocks_y);

}  // namespace gridfuzz::vllm
