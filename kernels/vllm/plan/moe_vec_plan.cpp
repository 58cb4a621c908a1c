#include "moe_vec_plan.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace gridfuzz::vllm {
namespace {

// A dim3 extent from an int: the conversion to unsigned.
std::uint64_t extent(int v) { return static_cast<std::uint32_t>(v); }

LaunchSpec spec(const char* name, Dim3 grid, Dim3 block) {
  LaunchSpec l;
  l.name = name;
  l.grid = grid;
  l.block = block;
  return l;
}

// moe_vec_<type>_q8_1_cuda<scalar_t>(vx, vy, dst, topk_ids, top_k, tokens, ncols, nrows,
// token_stride, stream), e.g. moe_vec.cuh:56-68 for q4_0 (every type computes the same grid).
MoeVecLaunch gemv_launch(int top_k, int tokens, int ncols, int nrows, int token_stride, const UpstreamConstants& c) {
  MoeVecLaunch l;
  const int block_num_y = (nrows + c.mmv_y - 1) / c.mmv_y;                               // moe_vec.cuh:62
  l.spec = spec("moe_vec_q", {extent(block_num_y), 1, extent(int_mul(tokens, top_k))},  // :63 (rows, 1, tokens*top_k)
                {static_cast<std::uint64_t>(c.warp_size), static_cast<std::uint64_t>(c.mmv_y), 1});  // :64
  l.top_k = top_k;
  l.ncols = ncols;
  l.nrows = nrows;
  l.token_stride = token_stride;
  return l;
}

// mul_mat_vec_<type>_q8_1_cuda<scalar_t>(vx, vy, dst, ncols, nrows, nvecs, stream), e.g.
// mmvq.cuh:44-50 for q4_0: grid (rows, nvecs, 1).
MoeVecLaunch mmvq_launch(int ncols, int nrows, int nvecs, const UpstreamConstants& c) {
  MoeVecLaunch l;
  const int block_num_y = (nrows + c.mmv_y - 1) / c.mmv_y;                                // mmvq.cuh:45
  l.spec = spec("mul_mat_vec_q", {extent(block_num_y), extent(nvecs), 1},                  // :46
                {static_cast<std::uint64_t>(c.warp_size), static_cast<std::uint64_t>(c.mmv_y), 1});  // :47
  l.ncols = ncols;
  l.nrows = nrows;
  l.nvecs = nvecs;
  return l;
}

}  // namespace

MoeVecCall moe_vec_call(MoeVecVariant v, const gguf::MoeCallShape& s, const UpstreamConstants& c,
                        const DeviceLimits& limits) {
  MoeVecCall call;
  call.quantize = quantize_launches(v, s.activation_rows(), s.cols, c, call.host_error);
  // ggml_moe_a8_vec's int64 arguments as the launcher's int parameters (gguf_kernel.cu:395-417).
  // vLLM's down projection calls it with top_k 1 over tokens*top_k rows (gguf::MoeCallShape).
  const int top_k = as_int(static_cast<std::int64_t>(s.kernel_top_k()));
  const int ncols = as_int(static_cast<std::int64_t>(s.cols));
  const int nrows = as_int(static_cast<std::int64_t>(s.rows));
  const int token_stride = as_int(static_cast<std::int64_t>(s.token_stride()));  // quant_X.stride(0), :417
  const std::uint64_t kernel_tokens = s.pairs() / s.kernel_top_k();
  if (s.dense) {
    // ggml_mul_mat_vec_a8 (gguf_kernel.cu:104-218): `vecs` and `row` as the launcher's ints.
    const std::uint64_t per_launch = v == MoeVecVariant::upstream ? s.tokens : std::max<std::uint64_t>(limits.max_grid_y, 1);
    for (std::uint64_t v0 = 0; v0 < s.tokens; v0 += per_launch) {
      const std::uint64_t n = std::min(per_launch, s.tokens - v0);
      MoeVecLaunch l = mmvq_launch(ncols, nrows, as_int(static_cast<std::int64_t>(n)), c);
      l.q8_offset = v0 * s.token_stride();
      l.dst_offset = v0 * s.rows;
      call.gemv.push_back(l);
    }
  } else if (v == MoeVecVariant::upstream) {
    call.gemv.push_back(gemv_launch(top_k, as_int(static_cast<std::int64_t>(kernel_tokens)), ncols, nrows,
                                    token_stride, c));
  } else {
    // The fix: at most floor(max_grid_z / top_k) tokens per launch, pointers advanced in 64 bits.
    const std::uint64_t per_launch = std::max<std::uint64_t>(limits.max_grid_z / s.kernel_top_k(), 1);
    for (std::uint64_t t0 = 0; t0 < kernel_tokens; t0 += per_launch) {
      const std::uint64_t n = std::min(per_launch, kernel_tokens - t0);
      MoeVecLaunch l = gemv_launch(top_k, static_cast<int>(n), ncols, nrows, token_stride, c);
      l.q8_offset = t0 * s.token_stride();
      l.ids_offset = t0 * s.kernel_top_k();
      l.dst_offset = t0 * s.kernel_top_k() * s.rows;
      call.gemv.push_back(l);
    }
  }

  // Index ranges: the quantizer's (quantize_plan) and moe_vec_q's / mul_mat_vec_q's
  // (moe_vec.cuh:11-51, mmvq.cuh:3-40) as the GGUF family models the same code
  // (kernels/gguf/plan/launch_geometry.hpp), for the pairs one launch sees.
  call.indices = quantize_index_ranges(v, s.activation_rows(), s.cols);
  gguf::MoeCallShape kernel_shape = s;  // what one moe_vec launch sees
  if (v == MoeVecVariant::chunked) {
    // Pairs (vectors for mmvq, on grid.y) per launch as tokens of the call shape (pairs = tokens *
    // top_k); for the down projection a chunk need not end on a token, so this rounds up (an
    // upper bound).
    std::uint64_t most = 0;
    for (const MoeVecLaunch& l : call.gemv) most = std::max(most, s.dense ? l.spec.grid.y : l.spec.grid.z);
    kernel_shape.tokens = std::max<std::uint64_t>((most + s.top_k - 1) / s.top_k, 1);
  }
  for (IndexRange r : gguf::gemv_indices(gguf::GemvGeometry::legacy, kernel_shape)) {
    // mmvq.cuh:40 dst[vec*nrows + row]: vec is blockIdx.y, so the product is unsigned.
    if (s.dense && r.name == "dst_index") r.type = IndexType::uint32;
    call.indices.push_back(r);
  }
  return call;
}

std::vector<gguf::TokenRange> moe_vec_reference_pieces(const gguf::MoeCallShape& s, const DeviceLimits& limits) {
  return gguf::reference_token_ranges(s, limits);
}

}  // namespace gridfuzz::vllm
