// ggml_cuda_mul_mat_vec_q (mmvq.cu:1421-1536), reproduced for NVIDIA devices of compute
// capability 7.5 and newer that are not the DGX Spark (GB10): there get_device_table_id gives
// MMVQ_PARAMETERS_GENERIC (mmvq.cu:124-144; gridfuzz builds for one architecture, so
// ggml_cuda_highest_compiled_arch(cc) is cc itself).
#include <algorithm>
#include <stdexcept>

#include "plan/upstream_call_plan.hpp"

namespace gridfuzz::llamacpp {
namespace {

constexpr int kMmvqMaxBatch = 8;            // MMVQ_MAX_BATCH_SIZE (mmvq.cuh:3)
constexpr int kQuantizeBlock = 256;         // CUDA_QUANTIZE_BLOCK_SIZE (quantize.cuh:8)

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// calc_nwarps, MMVQ_PARAMETERS_GENERIC (mmvq.cu:453-467).
int nwarps_generic(std::uint64_t ncols_dst) {
  if (ncols_dst <= 4) return 4;
  if (ncols_dst <= 8) return 2;
  return 1;
}

// calc_rows_per_block, MMVQ_PARAMETERS_GENERIC (mmvq.cu:579-597).
int rows_per_block_generic(std::uint64_t ncols_dst, bool small_k, int nwarps) {
  if (ncols_dst == 1) return small_k ? nwarps : 1;
  if (ncols_dst <= 8) return 2;
  return 1;
}

}  // namespace

std::vector<gguf::QuantType> llamacpp_quant_types() {
  using gguf::QuantType;
  return {QuantType::q4_0, QuantType::q8_0, QuantType::q4_K, QuantType::q6_K, QuantType::iq4_xs};
}

TypeConstants type_constants(gguf::QuantType t) {
  using gguf::QuantType;
  // qk: ggml-common.h QK4_0/QK8_0/QK_K; qi = qk / (4*qr) (ggml-common.h:103,121,133,139,166);
  // vdr: vecdotq.cuh:115 (q4_0), :243 (q8_0), :504 (q4_K), :623 (q6_K), :1354 (iq4_xs).
  switch (t) {
    case QuantType::q4_0: return {32, 4, 2};
    case QuantType::q8_0: return {32, 8, 2};
    case QuantType::q4_K: return {256, 32, 2};
    case QuantType::q6_K: return {256, 32, 1};
    case QuantType::iq4_xs: return {256, 32, 4};
    default: break;
  }
  throw std::invalid_argument(std::string("llama.cpp kernels are not built for ") + gguf::quant_traits(t).name);
}

namespace {

// The weight block each thread reads, kbx_offset + i*stride_row_x + kbx, as mul_mat_vec_q
// (mmvq.cu:713, 746) and mul_mat_vec_q_moe (:911, 923) form it: kbx_offset is declared `const int`
// and made of uint32 products (channel_x*stride_channel_x + row0*stride_row_x, both strides
// uint32 kernel arguments, :603-605, :856-858), the sum with the uint32 i*stride_row_x is again
// uint32, and vec_dot_q_cuda takes it as `const int & kbx`: the block index is that value mod
// 2^32 read as an int, so it wraps negative (a read before vx) once it reaches 2^31. Largest
// value: the last block of the last row of the highest expert (its channel_x; one matrix without
// ids), rows counted up to the last row block's end (rows_per_block rows from row0).
IndexRange mmvq_weight_block_index(const gguf::MoeCallShape& s, std::uint64_t rows_per_block, bool moe_kernel) {
  const std::uint64_t blocks_per_row = s.cols / static_cast<std::uint64_t>(type_constants(s.quant).qk);
  const std::uint64_t row_end = (s.rows + rows_per_block - 1) / rows_per_block * rows_per_block;
  const std::uint64_t matrices_before = s.dense ? 0 : s.experts - 1;  // channel_x up to experts - 1
  const u128 last = static_cast<u128>(matrices_before) * s.rows * blocks_per_row + static_cast<u128>(row_end) * blocks_per_row - 1;
  return {moe_kernel ? "weight block kbx_offset + i*stride_row_x + kbx (mmvq.cu:911, 923)"
                     : "weight block kbx_offset + i*stride_row_x + kbx (mmvq.cu:713, 746)",
          last, IndexType::int32, "blocks"};
}

}  // namespace

std::int64_t padded_cols(std::int64_t cols) {
  return (cols + kMatrixRowPadding - 1) / kMatrixRowPadding * kMatrixRowPadding;  // GGML_PAD
}

UpstreamCallPlan mmvq_plan(const gguf::MoeCallShape& s, const DeviceLimits& limits) {
  UpstreamCallPlan plan;
  const bool ids = !s.dense;
  // The tensors of upstream_call.cu: with ids src1 [cols, ne11, tokens], dst [rows, top_k, tokens];
  // without, src1 [cols, vectors], dst [rows, vectors].
  const std::uint64_t ne11 = ids ? (s.proj == gguf::Projection::down ? s.top_k : 1) : s.tokens;
  const std::uint64_t ne12 = ids ? s.tokens : 1;
  if (ids && ne12 > kMmvqMaxBatch) {
    plan.host_error = "GGML_ASSERT(!ids || ne12 <= MMVQ_MAX_BATCH_SIZE) failed (mmvq.cu:1441)";
    return plan;
  }
  const std::uint64_t warp = limits.warp_size ? limits.warp_size : 32;
  // quantize_row_q8_1_cuda (mmvq.cu:1506 -> quantize.cu:558-573): grid (ceil(ne10_padded/256),
  // ne11, ne12*ne13), block 256.
  LaunchSpec q;
  q.name = "quantize_q8_1";
  q.grid = {ceil_div(static_cast<std::uint64_t>(padded_cols(static_cast<std::int64_t>(s.cols))), kQuantizeBlock), ne11,
            ne12};
  q.block = {kQuantizeBlock, 1, 1};
  plan.launches.push_back(q);

  // mmvq.cu:1521-1523: with ids the dst columns are the tokens (ne2) and the channels the slots
  // (ne1); without, the columns are the vectors (ne1) and there is one channel.
  const std::uint64_t ncols_dst = s.tokens;  // ids: ne2 = tokens; without: ne1 = vectors
  const std::uint64_t nchannels_dst = ids ? s.top_k : 1;
  if (ncols_dst > kMmvqMaxBatch) {
    plan.host_error = "GGML_ASSERT(ncols_dst <= MMVQ_MAX_BATCH_SIZE) failed (mmvq.cu:1086)";
    return plan;
  }
  if (ids && ncols_dst > 1) {
    // mul_mat_vec_q_moe_launch (mmvq.cu:1165 -> 1043-1073): rows_per_block 2, grid
    // (ceil(nrows/2), nchannels_dst), block (warp, ncols_dst).
    LaunchSpec l;
    l.name = "mul_mat_vec_q_moe";
    l.grid = {ceil_div(s.rows, 2), nchannels_dst, 1};
    l.block = {warp, ncols_dst, 1};
    plan.launches.push_back(l);
    plan.indices.push_back(mmvq_weight_block_index(s, 2, true));  // c_rows_per_block 2
    return plan;
  }
  // The switch on ncols_dst (mmvq.cu:1175-1262) and calc_launch_params (mmvq.cu:999-1008).
  bool small_k = false;
  if (ncols_dst == 1) {
    // should_use_small_k (mmvq.cu:1107-1140): on NVIDIA Turing and newer only IQ3_XXS/IQ3_S are
    // excluded (none of the covered types).
    const TypeConstants c = type_constants(s.quant);
    const std::uint64_t blocks_per_row = s.cols / static_cast<std::uint64_t>(c.qk);
    const std::uint64_t blocks_per_iter_1warp = static_cast<std::uint64_t>(c.vdr_mmvq) * warp / c.qi;
    const int nw = nwarps_generic(1);
    small_k = nw > 1 && blocks_per_row < static_cast<std::uint64_t>(nw) * blocks_per_iter_1warp;
    // should_halve_iters (mmvq.cu:1143-1162) is false outside MMVQ_PARAMETERS_GB10.
  }
  const int nwarps = nwarps_generic(ncols_dst);
  const int rpb = rows_per_block_generic(ncols_dst, small_k, nwarps);
  LaunchSpec l;
  l.name = "mul_mat_vec_q";
  l.grid = {ceil_div(s.rows, static_cast<std::uint64_t>(rpb)), nchannels_dst, 1};  // nsamples_dst = ne3 = 1
  l.block = {warp, static_cast<std::uint64_t>(nwarps), 1};
  plan.launches.push_back(l);
  plan.indices.push_back(mmvq_weight_block_index(s, static_cast<std::uint64_t>(rpb), false));
  return plan;
}

}  // namespace gridfuzz::llamacpp
