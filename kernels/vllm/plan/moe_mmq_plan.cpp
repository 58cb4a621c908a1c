#include "moe_mmq_plan.hpp"

#include <algorithm>

namespace gridfuzz::vllm {
namespace {

std::uint64_t extent(int v) { return static_cast<std::uint32_t>(v); }  // a dim3 extent from an int

}  // namespace

AlignedRoutingSizes aligned_routing_sizes(std::uint64_t pairs, std::uint64_t experts, std::uint64_t block) {
  AlignedRoutingSizes r;
  r.max_padded = pairs + experts * (block - 1);
  if (pairs < experts) r.max_padded = std::min(pairs * block, r.max_padded);
  r.blocks = (r.max_padded + block - 1) / block;
  return r;
}

MoeMmqCall moe_mmq_call(MoeVecVariant v, const gguf::MoeCallShape& s, const UpstreamConstants& c,
                        std::uint64_t max_blocks_y) {
  MoeMmqCall call;
  call.quantize = quantize_launches(v, s.activation_rows(), s.cols, c, call.host_error);
  const MmqTile tile = moe_mmq_tile(s.quant);
  const AlignedRoutingSizes sizes = aligned_routing_sizes(s.pairs(), s.experts, static_cast<std::uint64_t>(tile.mmq_x));

  // ggml_moe_a8's arguments to ggml_moe_<type>_q8_1_cuda (gguf_kernel.cu:310-316), as its ints.
  MoeMmqLaunch base;
  base.exp_stride = as_int(static_cast<std::int64_t>(s.rows * s.weight_row_bytes()));  // W.stride(0): bytes per expert
  base.ncols_x = as_int(static_cast<std::int64_t>(s.cols));                            // col
  base.nrows_x = as_int(static_cast<std::int64_t>(s.rows));                            // row
  base.ncols_y = as_int(static_cast<std::int64_t>(s.activation_rows()));               // tokens
  base.nrows_y = as_int((static_cast<std::int64_t>(s.cols) + 511) / 512 * 512);         // padded
  base.nrows_dst = base.nrows_x;                                                         // row
  base.top_k = as_int(static_cast<std::int64_t>(s.kernel_top_k()));                    // top_k
  const int tokens_post_padded = as_int(static_cast<std::int64_t>(sizes.max_padded));  // sorted_token_ids.sizes()[0]
  // ggml_moe_q4_0_q8_1_cuda (moe.cuh:164-190; the same in every type's launcher):
  const int block_num_x = (base.nrows_x + tile.mmq_y - 1) / tile.mmq_y;  // :174
  const int block_num_y = tokens_post_padded / tile.mmq_x;               // :175
  base.need_check = base.nrows_x % tile.mmq_y != 0;                      // :179
  base.spec.name = "moe_mmq";
  base.spec.block = {static_cast<std::uint64_t>(c.warp_size), static_cast<std::uint64_t>(tile.nwarps), 1};  // :177
  if (v == MoeVecVariant::upstream) {
    MoeMmqLaunch l = base;
    l.spec.grid = {extent(block_num_x), extent(block_num_y), 1};  // :176
    call.mmq.push_back(l);
  } else {
    // The fix: at most max_blocks_y blocks of tokens per launch, sorted and expert ids advanced.
    const std::uint64_t all = extent(block_num_y), per = std::max<std::uint64_t>(max_blocks_y, 1);
    for (std::uint64_t y0 = 0; y0 < all; y0 += per) {
      MoeMmqLaunch l = base;
      l.spec.grid = {extent(block_num_x), std::min(per, all - y0), 1};
      l.sorted_offset = y0 * static_cast<std::uint64_t>(tile.mmq_x);
      l.expert_ids_offset = y0;
      call.mmq.push_back(l);
    }
  }

  // Index ranges of moe_q (moe.cuh:5-128), the same for both variants (the fix does not reach
  // inside the kernel), and the quantizer's (quantize_plan).
  const std::uint64_t bpr = s.blocks_per_row();
  const std::uint64_t padded_blocks = static_cast<std::uint64_t>(base.nrows_y) / 32;
  call.indices.push_back({"expert_byte_offset", u128{s.experts - 1} * s.rows * s.weight_row_bytes(), IndexType::int32,
                          "bytes"});  // :36 exp_idx * exp_stride, both int
  call.indices.push_back({"weight_block", u128{extent(block_num_x)} * tile.mmq_y * bpr - 1, IndexType::int32,
                          "blocks"});  // :52 row_x_0 * blocks_per_row_x, int
  call.indices.push_back({"act_block", u128{s.activation_rows()} * padded_blocks - 1, IndexType::int32,
                          "q8_1 blocks"});  // :67 col_y_eff * blocks_per_col_y + block_x, int
  call.indices.push_back({"ncols_dst", u128{s.pairs()}, IndexType::int32, "pairs"});  // :20 ncols_y * top_k
  // :126 dst[col_dst * nrows_dst + row_dst]: an int product added to an unsigned row, so it
  // wraps as an unsigned.
  call.indices.push_back({"dst_index", u128{s.pairs()} * s.rows - 1, IndexType::uint32, "elements"});
  for (IndexRange& r : quantize_index_ranges(v, s.activation_rows(), s.cols)) call.indices.push_back(r);
  return call;
}

}  // namespace gridfuzz::vllm
