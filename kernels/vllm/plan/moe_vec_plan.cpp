#include "moe_vec_plan.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace gridfuzz::vllm {
namespace {

// An int64 as the `int` parameter it is passed to: the low 32 bits, two's complement (what every
// compiler gridfuzz knows does with the narrowing conversion).
int as_int(std::int64_t v) { return static_cast<int>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(v))); }
// int * int as upstream's code computes it, wrapping modulo 2^32 (signed overflow in the source).
int int_mul(int a, int b) {
  return static_cast<int>(static_cast<std::uint32_t>(static_cast<std::int64_t>(a) * static_cast<std::int64_t>(b)));
}
// A dim3 extent from an int: the conversion to unsigned.
std::uint64_t extent(int v) { return static_cast<std::uint32_t>(v); }

constexpr int kMaxBlockSize = 65535;  // gguf_kernel.cu:77, MAX_BLOCK_SIZE: rows per quantize launch

LaunchSpec spec(const char* name, Dim3 grid, Dim3 block) {
  LaunchSpec l;
  l.name = name;
  l.grid = grid;
  l.block = block;
  return l;
}

// quantize_row_q8_1_cuda<scalar_t>(x, vy, kx = col, ky = rows, stream), gguf_kernel.cu:72-86.
void plan_quantize(MoeVecVariant v, const gguf::MoeCallShape& s, const UpstreamConstants& c, MoeVecCall& call) {
  const int kx = as_int(static_cast<std::int64_t>(s.cols));                   // gguf_kernel.cu:399 `col`, an int param
  const int ky = as_int(static_cast<std::int64_t>(s.activation_rows()));      // `tokens` (int64) -> int ky
  const std::int64_t kx_padded = (static_cast<std::int64_t>(kx) + 512 - 1) / 512 * 512;  // :74
  const int block_num_x = static_cast<int>((kx_padded + c.quantize_grid_x_divisor - 1) / c.quantize_grid_x_divisor);  // :75-76
  const std::int64_t q8_words_per_row = kx_padded / 32 * 9;
  for (int off = 0; off < ky;) {  // :78
    const int num_blocks_y = std::min(ky, off + kMaxBlockSize) - off;  // :79 (off + 65535 fits: see below)
    QuantizeLaunch l;
    l.spec = spec("quantize_q8_1", {extent(block_num_x), extent(num_blocks_y), 1},
                  {static_cast<std::uint64_t>(c.quantize_block_threads), 1, 1});  // :80-82
    // :83 &x[off * kx]: an int product upstream; the fix computes it in 64 bits.
    l.x_offset = v == MoeVecVariant::upstream ? int_mul(off, kx) : static_cast<std::int64_t>(off) * kx;
    l.q8_offset = static_cast<std::int64_t>(off) * q8_words_per_row;  // :84 (int64: kx_padded is int64_t)
    l.kx = kx;
    l.kx_padded = static_cast<int>(kx_padded);  // :82 passed to `const int kx_padded`
    call.quantize.push_back(l);
    if (off > std::numeric_limits<int>::max() - kMaxBlockSize) {
      // `off += MAX_BLOCK_SIZE` would overflow int with rows still left: upstream's loop is
      // undefined from here. Only at 2^31 activation rows, far beyond device memory.
      if (off + static_cast<std::int64_t>(num_blocks_y) < ky)
        call.host_error = "int overflow of the quantize loop counter (gguf_kernel.cu:78)";
      break;
    }
    off += kMaxBlockSize;
  }
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

MoeVecVariant parse_moe_vec_variant(const std::string& name) {
  if (name == "upstream") return MoeVecVariant::upstream;
  if (name == "chunked") return MoeVecVariant::chunked;
  throw std::invalid_argument("vllm.moe_vec: unknown variant '" + name + "' (upstream, chunked)");
}

MoeVecCall moe_vec_call(MoeVecVariant v, const gguf::MoeCallShape& s, const UpstreamConstants& c,
                        const DeviceLimits& limits) {
  MoeVecCall call;
  plan_quantize(v, s, c, call);
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

  // Index ranges: upstream's q8_1 kernel (gguf_kernel.cu:36-48) and moe_vec_q (moe_vec.cuh:11-51),
  // as the GGUF family models the same code (kernels/gguf/cuda/launch_geometry.hpp), with one
  // correction: quantize_q8_1 reads x[iy * kx + ix] with iy unsigned (:40, :48), so that index
  // wraps at 2^32 (uint32), while i_padded (:41) is an int.
  call.indices = gguf::quantize_indices(gguf::QuantizeGeometry::upstream_tiles, s.activation_rows(), s.cols, limits);
  for (IndexRange& r : call.indices)
    if (r.name == "q8_1_input_index") r.type = IndexType::uint32;
  if (v == MoeVecVariant::chunked)
    std::erase_if(call.indices, [](const IndexRange& r) { return r.name.starts_with("q8_1_chunk_"); });
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
