#include "launch_geometry.hpp"

#include <algorithm>
#include <stdexcept>

#include "gridfuzz/checked_math.hpp"
#include "gridfuzz/gguf/formats.hpp"

namespace gridfuzz::gguf {
namespace {

// A host int computed from a 64-bit count, as upstream's `int` (then dim3's unsigned) holds it:
// the value modulo 2^32. A count of 2^32 becomes a grid extent of 0, which the driver refuses.
std::uint64_t as_uint32_extent(std::uint64_t v) { return v & 0xFFFFFFFFull; }

IndexType narrow_or_64(bool legacy, IndexType upstream) { return legacy ? upstream : IndexType::int64; }

LaunchSpec gemv_spec(const char* name, Dim3 grid) {
  LaunchSpec l;
  l.name = name;
  l.grid = grid;
  l.block = {32, 1, 1};
  return l;
}

// The rows a tiled quantize launch covers at most (vLLM's fixed tile, or the grid.y limit).
std::uint64_t quantize_tile_rows(QuantizeGeometry g, const DeviceLimits& limits) {
  const std::uint64_t tile = g == QuantizeGeometry::upstream_tiles ? kUpstreamChunkRows : limits.max_grid_y;
  if (tile == 0) throw std::invalid_argument("quantize_launches: the device's grid.y limit is 0");
  return tile;
}

}  // namespace

std::vector<QuantizeLaunch> quantize_launches(QuantizeGeometry g, std::uint64_t rows, std::uint64_t cols,
                                              const DeviceLimits& limits) {
  const std::uint64_t blocks_x = q8_1_padded_cols(cols) / kQuantizeBlockThreads;
  std::vector<QuantizeLaunch> out;
  LaunchSpec l;
  l.name = "quantize_q8_1";
  l.block = {kQuantizeBlockThreads, 1, 1};
  if (g == QuantizeGeometry::one_launch) {
    l.grid = {blocks_x, as_uint32_extent(rows), 1};
    out.push_back({l, 0});
    return out;
  }
  const std::uint64_t tile = quantize_tile_rows(g, limits);
  out.reserve(ceil_div(rows, tile));
  for (std::uint64_t r0 = 0; r0 < rows; r0 += tile) {
    l.grid = {blocks_x, std::min(tile, rows - r0), 1};
    out.push_back({l, r0});
  }
  return out;
}

bool quantize_fits_uint32(std::uint64_t rows, std::uint64_t cols) {
  return u128{rows} * q8_1_padded_cols(cols) <= u128{1} << 32;  // the largest index is one less
}

std::vector<IndexRange> quantize_indices(QuantizeGeometry g, std::uint64_t rows, std::uint64_t cols,
                                         const DeviceLimits& limits) {
  const bool legacy = g != QuantizeGeometry::tiles_64;
  const std::uint64_t padded = q8_1_padded_cols(cols);
  const auto [max_chunk, last_offset] = quantize_chunks(g, rows, limits);
  std::vector<IndexRange> r;
  if (g == QuantizeGeometry::tiles_64) {
    // Ours: absolute row index (offset + blockIdx.y) times the row length, in the kernel picked.
    const IndexType type = quantize_fits_uint32(rows, cols) ? IndexType::uint32 : IndexType::int64;
    r.push_back({"q8_1_input_index", u128{rows} * cols - 1, type, "elements"});
    r.push_back({"q8_1_output_index", u128{rows} * padded - 1, type, "elements"});
    return r;
  }
  // Upstream: iy*kx + ix and iy*kx_padded + ix in int within a launch; the host's chunk offsets
  // off*kx and off*(padded/32*9) in int.
  r.push_back({"q8_1_input_index", u128{max_chunk} * cols - 1, narrow_or_64(legacy, IndexType::int32), "elements"});
  r.push_back({"q8_1_output_index", u128{max_chunk} * padded - 1, narrow_or_64(legacy, IndexType::int32), "elements"});
  if (g == QuantizeGeometry::upstream_tiles) {
    r.push_back({"q8_1_chunk_input_offset", u128{last_offset} * cols, IndexType::int32, "elements"});
    r.push_back({"q8_1_chunk_output_offset", u128{last_offset} * q8_1_row_stride_int32(cols), IndexType::int32,
                 "int32 words"});
  }
  return r;
}

QuantizeChunks quantize_chunks(QuantizeGeometry g, std::uint64_t rows, const DeviceLimits& limits) {
  if (g == QuantizeGeometry::one_launch) return {as_uint32_extent(rows), 0};  // one launch, its grid.y wrapped
  const std::uint64_t tile = quantize_tile_rows(g, limits);
  if (rows == 0) return {};
  return {std::min(tile, rows), (rows - 1) / tile * tile};
}

GemvGeometry resolve(GemvGeometry g, const MoeCallShape& s) {
  if (g != GemvGeometry::fixed) return g;
  return s.pairs() >= kPairsOnXFromPairs ? GemvGeometry::pairs_x : GemvGeometry::rows_x;
}

std::vector<GemvLaunch> gemv_launches(GemvGeometry g, const MoeCallShape& s, const DeviceLimits& limits) {
  g = resolve(g, s);
  const std::uint64_t pairs = s.pairs();
  const char* name = s.dense ? "mmvq" : "moe_vec";
  std::vector<GemvLaunch> out;
  switch (g) {
    case GemvGeometry::legacy: {
      // grid (nrows, 1, tokens*top_k) for moe_vec, (nrows, nvecs, 1) for mmvq; int host math.
      const std::uint64_t p = as_uint32_extent(pairs), r = as_uint32_extent(s.rows);
      out.push_back({gemv_spec(name, s.dense ? Dim3{r, p, 1} : Dim3{r, 1, p}), 0, 0, !s.dense});
      return out;
    }
    case GemvGeometry::pairs_x: {
      for (std::uint64_t r0 = 0; r0 < s.rows; r0 += limits.max_grid_y)
        for (std::uint64_t p0 = 0; p0 < pairs; p0 += limits.max_grid_x)
          out.push_back({gemv_spec(name, {std::min(limits.max_grid_x, pairs - p0), std::min(limits.max_grid_y, s.rows - r0), 1}),
                         p0, r0, false});
      return out;
    }
    case GemvGeometry::rows_x: {
      for (std::uint64_t r0 = 0; r0 < s.rows; r0 += limits.max_grid_x)
        for (std::uint64_t p0 = 0; p0 < pairs; p0 += limits.max_grid_y)
          out.push_back({gemv_spec(name, {std::min(limits.max_grid_x, s.rows - r0), std::min(limits.max_grid_y, pairs - p0), 1}),
                         p0, r0, false});
      return out;
    }
    case GemvGeometry::fixed:
      break;  // resolved above
    case GemvGeometry::by_expert: {
      if (s.dense) throw std::invalid_argument("gemv_launches: by_expert needs expert ids (not mmvq)");
      LaunchSpec base = gemv_spec("moe_vec_by_expert", {1, 1, 1});
      base.block = {kByExpertThreads, 1, 1};
      base.func.static_smem_bytes = kByExpertSmemBytes;
      const std::uint64_t slots = std::min(s.experts, pairs);
      const std::uint64_t slices = std::clamp<std::uint64_t>(ceil_div(pairs, kByExpertPairsPerSlice), 1, limits.max_grid_z);
      const std::uint64_t rows_per_launch = limits.max_grid_x * kByExpertRowsPerBlock;
      for (std::uint64_t e0 = 0; e0 < slots; e0 += limits.max_grid_y)
        for (std::uint64_t r0 = 0; r0 < s.rows; r0 += rows_per_launch) {
          LaunchSpec l = base;
          l.grid = {ceil_div(std::min(rows_per_launch, s.rows - r0), kByExpertRowsPerBlock),
                    std::min(limits.max_grid_y, slots - e0), slices};
          GemvLaunch gl{l, 0, r0, false};
          gl.expert_slot_offset = e0;
          out.push_back(gl);
        }
      return out;
    }
    case GemvGeometry::zchunk: {
      // Token-aligned chunks: a whole number of tokens (kernel_top_k pairs each) per launch.
      const std::uint64_t k = s.kernel_top_k();
      const std::uint64_t chunk = limits.max_grid_z / k * k;
      if (chunk == 0) throw std::invalid_argument("gemv_launches: top_k exceeds the grid.z limit");
      for (std::uint64_t r0 = 0; r0 < s.rows; r0 += limits.max_grid_x)
        for (std::uint64_t p0 = 0; p0 < pairs; p0 += chunk)
          out.push_back({gemv_spec(name, {std::min(limits.max_grid_x, s.rows - r0), 1, std::min(chunk, pairs - p0)}),
                         p0, r0, true});
      return out;
    }
  }
  return out;
}

std::vector<LaunchSpec> expert_group_launches(GemvGeometry g, const MoeCallShape& s) {
  if (g != GemvGeometry::by_expert) return {};
  if (s.dense) throw std::invalid_argument("expert_group_launches: by_expert needs expert ids (not mmvq)");
  if (s.experts > kExpertGroupMaxExperts)
    throw std::invalid_argument("expert_group_launches: " + std::to_string(s.experts) + " experts > " +
                                std::to_string(kExpertGroupMaxExperts) + " (one scan block)");
  if (expert_group_one_block(s)) {
    LaunchSpec one;
    one.name = "moe_expert_group";
    one.block = {kExpertScanThreads, 1, 1};
    one.func.static_smem_bytes = kExpertGroupOneBlockSmemBytes;
    return {one};
  }
  LaunchSpec strided;
  strided.block = {kExpertGroupThreads, 1, 1};
  strided.grid = {std::clamp<std::uint64_t>(ceil_div(s.pairs(), kExpertGroupThreads), 1, kExpertGroupMaxBlocks), 1, 1};
  LaunchSpec count = strided, scan, scatter = strided;
  count.name = "moe_expert_count";
  scan.name = "moe_expert_scan";
  scan.grid = {1, 1, 1};
  scan.block = {kExpertScanThreads, 1, 1};
  scan.func.static_smem_bytes = kExpertScanSmemBytes;
  scatter.name = "moe_expert_scatter";
  return {count, scan, scatter};
}

bool expert_group_one_block(const MoeCallShape& s) { return s.pairs() <= kExpertGroupOneBlockPairs; }

ExpertGroupLayout expert_group_layout(const MoeCallShape& s, GemvIndexWidth width) {
  const auto align16 = [](u128 v) { return (v + 15) / 16 * 16; };
  const auto fit = [](u128 v) {
    if (v > u128{UINT64_MAX}) throw std::overflow_error("expert_group_layout: scratch past 2^64 bytes");
    return static_cast<std::uint64_t>(v);
  };
  ExpertGroupLayout l;
  l.list_entry_bytes = width == GemvIndexWidth::bits32 ? 4 : 8;
  u128 at = 0;
  l.counts = fit(at);
  at = align16(at + u128{s.experts} * 8);
  l.offsets = fit(at);
  at = align16(at + (u128{s.experts} + 1) * 8);
  l.cursor = fit(at);
  at = align16(at + u128{s.experts} * 8);
  l.used = fit(at);
  at = align16(at + u128{s.experts} * 4);
  l.n_used = fit(at);
  at = align16(at + 4);
  l.list = fit(at);
  l.bytes = fit(align16(at + u128{s.pairs()} * l.list_entry_bytes));
  return l;
}

namespace {

// Upstream's kernel: the expressions of gemv_legacy in its declared types
// (docs/KERNELS.md, "vLLM moe_vec").
std::vector<IndexRange> legacy_gemv_indices(const MoeCallShape& s) {
  const std::uint64_t bpr = s.blocks_per_row();
  std::vector<IndexRange> r;
  // dst[p*nrows + row]: unsigned in moe_vec (from blockIdx), int in mmvq.
  r.push_back({"dst_index", u128{s.pairs()} * s.rows - 1, s.dense ? IndexType::int32 : IndexType::uint32, "elements"});
  if (s.dense) {
    // mmvq: activation block vec*(padded/32) + i*(qk/32), int.
    r.push_back({"act_block", u128{s.tokens} * q8_1_blocks_per_row(s.cols) - 1, IndexType::int32, "q8_1 blocks"});
  } else {
    // token*token_stride: unsigned*int -> unsigned (int32 units).
    r.push_back({"act_offset", u128{s.pairs() / s.kernel_top_k() - 1} * s.token_stride(), IndexType::uint32,
                 "int32 words"});
    // expert*nrows*blocks_per_row: int.
    r.push_back({"expert_base", u128{s.experts - 1} * s.rows * bpr, IndexType::int32, "blocks"});
    // host: tokens*top_k in int before it becomes grid.z.
    r.push_back({"host_pairs", u128{s.pairs()}, IndexType::int32, "pairs"});
  }
  r.push_back({"weight_block", u128{s.rows} * bpr - 1, IndexType::int32, "blocks"});
  return r;
}

// gemv_tiled<..., Index> with Index declared as `t`: one entry per index expression of the
// kernel, each with the exact largest value it reaches for this shape. The pair index p (<=
// pairs - 1) and the row are never larger than dst_index, so it covers them.
std::vector<IndexRange> tiled_gemv_indices(const MoeCallShape& s, IndexType t) {
  const std::uint64_t bpr = s.blocks_per_row();
  const std::uint64_t kernel_tokens = s.dense ? s.tokens : s.pairs() / s.kernel_top_k();
  const std::uint64_t experts = s.dense ? 1 : s.experts;
  std::vector<IndexRange> r;
  r.push_back({"dst_index", u128{s.pairs()} * s.rows - 1, t, "elements"});  // p*nrows + row
  r.push_back({"act_offset", u128{kernel_tokens - 1} * s.token_stride(), t, "int32 words"});  // token*token_stride
  // (expert*nrows + row)*blocks_per_row, the weight row's first block; x block_bytes in 64 bits.
  r.push_back({"weight_row_block", (u128{experts} * s.rows - 1) * bpr, t, "blocks"});
  // i*block_bytes inside one row: an int (the cols axis keeps a row far below 2^31 bytes).
  r.push_back({"weight_in_row_bytes", u128{bpr - 1} * quant_traits(s.quant).block_bytes, IndexType::int32, "bytes"});
  return r;
}

bool all_safe(const std::vector<IndexRange>& ranges) {
  return std::all_of(ranges.begin(), ranges.end(), [](const IndexRange& r) { return check_index(r).safe; });
}

}  // namespace

GemvIndexWidth gemv_index_width(const MoeCallShape& s) {
  return all_safe(tiled_gemv_indices(s, IndexType::uint32)) ? GemvIndexWidth::bits32 : GemvIndexWidth::bits64;
}

std::vector<IndexRange> gemv_indices(GemvGeometry g, const MoeCallShape& s) {
  if (g == GemvGeometry::legacy) return legacy_gemv_indices(s);
  const IndexType t = gemv_index_width(s) == GemvIndexWidth::bits32 ? IndexType::uint32 : IndexType::int64;
  std::vector<IndexRange> r = tiled_gemv_indices(s, t);
  if (g == GemvGeometry::by_expert) {
    const std::vector<LaunchSpec> pre = expert_group_launches(g, s);
    const u128 stride = u128{pre.front().grid.x} * pre.front().block.x;
    // list[k] = p: a pair index stored in the kernel's index type.
    r.push_back({"group_list_entry", u128{s.pairs()} - 1, t, "pairs"});
    // offsets[e], cursor[e] and the list position: up to pairs (offsets[experts]).
    r.push_back({"group_offset", u128{s.pairs()}, IndexType::uint64, "pairs"});
    // count/scatter (or moe_expert_group's loops): p = thread + k*stride, compared with pairs
    // after the last step.
    r.push_back({"group_pair_index", u128{s.pairs()} - 1 + stride, IndexType::uint64, "pairs"});
    // used[slot] (u32 expert id) and the slot, from blockIdx.y + the launch's slot offset.
    r.push_back({"group_expert_id", u128{s.experts} - 1, IndexType::uint32, "experts"});
    // The GEMV's tile rows: row_offset + blockIdx.x*kByExpertRowsPerBlock + warp*kByExpertRowsPerWarp
    // + r in the kernel's index type, up to the last tile's end (row_offset is a multiple of
    // kByExpertRowsPerBlock, gemv_launches).
    r.push_back({"tile_row", u128{ceil_div(s.rows, kByExpertRowsPerBlock)} * kByExpertRowsPerBlock - 1, t, "rows"});
  }
  return r;
}

std::vector<TokenRange> reference_token_ranges(const MoeCallShape& s, const DeviceLimits& limits) {
  // Tokens per piece: its pairs must fit grid.z and grid.y, its activation rows grid.y.
  const std::uint64_t axis_limit = std::min(limits.max_grid_z, limits.max_grid_y);
  const std::uint64_t pairs_per_token = s.dense ? 1 : s.top_k;
  const std::uint64_t per_piece = axis_limit / pairs_per_token;
  if (per_piece == 0) throw std::invalid_argument("reference_token_ranges: top_k exceeds the grid limits");
  std::vector<TokenRange> out;
  for (std::uint64_t t0 = 0; t0 < s.tokens; t0 += per_piece) out.push_back({t0, std::min(s.tokens, t0 + per_piece)});
  return out;
}

}  // namespace gridfuzz::gguf
