#include "gridfuzz/affine/matmul_plan.hpp"

#include <algorithm>
#include <climits>
#include <optional>
#include <tuple>

namespace gridfuzz::affine {
namespace {

// Largest value of an index whose exclusive bound is `count` (0 when nothing runs).
u128 last_index(u128 count) { return count == 0 ? 0 : count - 1; }

Dim3 qmv_grid(std::uint64_t n, std::uint64_t m, std::uint64_t l) { return {ceil_div(n, kQmvColsPerBlock), m, l}; }

// Spec names say which instantiation runs: "_legacy" (upstream's int32 math), or "_fixed_int32" /
// "_fixed_int64" for the fixed variant's narrow and wide index kernels.
std::string spec_name(MatmulPath path, const MatmulShape& s, Variant variant, bool wide) {
  std::string name = path == MatmulPath::qmv ? (s.gather ? "gather_qmv" : "qmv") : "qmm_sm80";
  if (variant == Variant::legacy) return name + "_legacy";
  return name + (wide ? "_fixed_int64" : "_fixed_int32");
}

LaunchSpec make_spec(MatmulPath path, const MatmulShape& s, Variant variant, bool wide, Dim3 grid, int tile_m,
                     int tile_k) {
  LaunchSpec spec;
  spec.name = spec_name(path, s, variant, wide);
  spec.grid = grid;
  if (path == MatmulPath::qmv) {
    spec.block = {32, kQmvColsPerBlock, 1};
  } else {
    spec.block = {kQmmThreads, 1, 1};
    spec.dynamic_smem_bytes = qmm_smem_bytes(tile_m, tile_k, s.bits, s.dtype);
    spec.smem_optin = spec.dynamic_smem_bytes > kSmemOptinThreshold;
  }
  return spec;
}

AffineLaunch make_launch(MatmulPath path, const MatmulShape& s, Variant variant, bool wide, std::uint64_t rows,
                         std::uint64_t batches, int tile_m) {
  AffineLaunch a;
  a.path = path;
  a.wide_index = wide;
  a.tile_m = tile_m;
  a.tile_k = qmm_tile_k(s.group_size);
  a.m = static_cast<std::int64_t>(rows);
  a.n = static_cast<std::int64_t>(s.n);
  a.k = static_cast<std::int64_t>(s.k);
  a.l = static_cast<std::int64_t>(batches);
  const Dim3 grid = path == MatmulPath::qmv ? qmv_grid(s.n, rows, batches)
                                            : Dim3{ceil_div(rows, tile_m), ceil_div(s.n, kQmmTileN), batches};
  a.spec = make_spec(path, s, variant, wide, grid, tile_m, a.tile_k);
  return a;
}

// The largest value of each offset both kernels form, for a launch of `slices` batch slices of
// `rows` rows (docs/KERNELS.md, "MLX kernel geometry"):
//   out:    batch*(m*n) + row*n + col
//   x:      a_batch*(m*k) + row*k + col, a_batch = batch (dense) or lhs[batch] < x_batches (gather)
//   w:      b_batch*(n*kw) + col*kw + word, b_batch = 0 (dense, broadcast) or rhs[batch] < experts
//   scales: b_batch*(n*kg) + col*kg + group
// Plain numbers, so the fixed plan can judge and combine its launches without building names.
struct OffsetMaxima {
  u128 out = 0, x = 0, w = 0, scale = 0;
  bool operator==(const OffsetMaxima&) const = default;
};

OffsetMaxima offset_maxima(const MatmulShape& s, u128 rows, u128 slices) {
  const u128 x_slices = s.gather ? u128{s.x_batches} : slices;
  return {last_index(slices * rows * s.n), last_index(x_slices * rows * s.k),
          last_index(u128{s.experts} * s.n * s.words_per_row()), last_index(u128{s.experts} * s.n * s.groups_per_row())};
}

// The ranges of `o`, out and x declared as `type`, w and scales as `weights`.
std::vector<IndexRange> index_ranges(const OffsetMaxima& o, IndexType type, IndexType weights) {
  return {
      {"out_offset", o.out, type, "elements"},
      {"x_offset", o.x, type, "elements"},
      {"w_offset", o.w, weights, "words"},
      {"scale_offset", o.scale, weights, "elements"},
  };
}

// gather_qmv's weight offset is (int64(col) + n*w_batch)*row_words with n*w_batch in the index type.
IndexRange w_batch_rows(const MatmulShape& s, IndexType type) {
  return {"w_batch_rows", u128{s.n} * (s.experts - 1), type, "rows"};
}

AffinePlan plan_legacy(const MatmulShape& s) {
  AffinePlan out;
  const std::int32_t m = wrap_int32(static_cast<std::int64_t>(s.m));
  const std::int32_t n = wrap_int32(static_cast<std::int64_t>(s.n));
  const LegacyBatchCount batch = legacy_batch_count(s.out_elements(), m, n);
  if (batch.div_by_zero) {
    out.plan.host_error = "div-by-zero";
    return out;
  }
  const std::int32_t l = batch.l;
  // dim3 takes the int as unsigned: a negative l becomes a huge grid.z, 0 stays 0.
  const std::uint64_t grid_z = static_cast<std::uint32_t>(l);
  out.path = wrap_int32(static_cast<std::int64_t>(m) * l) < 8 ? MatmulPath::qmv : MatmulPath::qmm;
  const int tile_m = qmm_tile_m(static_cast<std::uint64_t>(m));
  AffineLaunch a = make_launch(out.path, s, Variant::legacy, false, static_cast<std::uint64_t>(m), grid_z, tile_m);
  a.l = l;
  out.launches.push_back(a);
  out.plan.launches.push_back(a.spec);
  // qmm forms every offset in int; qmv forms out and x in int but the weight and scale offsets in
  // int64 ((int64(col) + n*w_batch)*row_words, qmv_kernel.cuh), with only n*w_batch in int.
  const IndexType weights = out.path == MatmulPath::qmv ? IndexType::int64 : IndexType::int32;
  out.plan.indices = index_ranges(offset_maxima(s, s.m, grid_z), IndexType::int32, weights);
  if (out.path == MatmulPath::qmv && s.gather) out.plan.indices.push_back(w_batch_rows(s, IndexType::int32));
  return out;
}

// The index ranges of fixed launches with offset maxima `o`, as their kernel forms them. The host
// has already moved x and out to the chunk's first row or slice in 64-bit (launch_planned), so out
// and dense x are local to the chunk; gather x, w and scales are indexed by absolute lhs/rhs
// values, so their bounds are those of the whole call. qmm forms all four offsets in the index
// type; qmv forms out, x (and gather's n*w_batch) in it, but w and scales always in int64,
// whichever instantiation runs.
std::vector<IndexRange> fixed_launch_ranges(const MatmulShape& s, MatmulPath path, const OffsetMaxima& o,
                                            IndexType type) {
  std::vector<IndexRange> r = index_ranges(o, type, path == MatmulPath::qmv ? IndexType::int64 : type);
  if (path == MatmulPath::qmv && s.gather) r.push_back(w_batch_rows(s, type));
  return r;
}

// PyTorch-style 32/64-bit dispatch: a launch gets the int32 kernel exactly when every offset it
// forms is provably below 2^31 (signed: the kernel compares and sign-extends them), else int64.
// The int32 kernel is the legacy instantiation (WrappingInt32Index): its arithmetic is modulo
// 2^32, so a final offset below 2^31 is exact whatever its intermediate products did, and the
// offsets it forms for padding rows and then discards stay defined behaviour.
// Judged on the numbers, not on built ranges: this runs inside every production call. The rule
// is the one fixed_launch_ranges declares (the CPU tests check the two against each other).
bool fixed_launch_fits_int32(const MatmulShape& s, MatmulPath path, const OffsetMaxima& o) {
  const u128 limit = first_wrapping_value(IndexType::int32);
  if (o.out >= limit || o.x >= limit) return false;
  if (path == MatmulPath::qmm) return o.w < limit && o.scale < limit;
  return !s.gather || w_batch_rows(s, IndexType::int32).max_value < limit;
}

OffsetMaxima max_of(const OffsetMaxima& a, const OffsetMaxima& b) {
  return {std::max(a.out, b.out), std::max(a.x, b.x), std::max(a.w, b.w), std::max(a.scale, b.scale)};
}

AffinePlan plan_fixed(const MatmulShape& s, const DeviceLimits& limits) {
  AffinePlan out;
  out.path = u128{s.m} * s.batches < 8 ? MatmulPath::qmv : MatmulPath::qmm;
  const int tile_m = qmm_tile_m(s.m);
  const std::uint64_t row_cap = fixed_row_cap(s.n, limits);
  const std::uint64_t batch_cap = limits.max_grid_z;
  // Per index width in use, the largest value of each offset over the launches that run it: the
  // plan declares those. The call is on the timed path of every production call (qmv takes ~16 us
  // at M 1), so the width of a launch size is judged once and reused for its repeats.
  std::optional<OffsetMaxima> narrow, wide;
  std::optional<OffsetMaxima> judged;
  bool judged_wide = false;
  for (std::uint64_t b0 = 0; b0 < s.batches; b0 += batch_cap) {
    const std::uint64_t bc = std::min(batch_cap, s.batches - b0);
    for (std::uint64_t r0 = 0; r0 < s.m; r0 += row_cap) {
      const std::uint64_t rows = std::min(row_cap, s.m - r0);
      const OffsetMaxima o = offset_maxima(s, rows, bc);
      if (judged != o) {
        judged = o;
        judged_wide = !fixed_launch_fits_int32(s, out.path, o);
      }
      AffineLaunch a = make_launch(out.path, s, Variant::fixed, judged_wide, rows, bc, tile_m);
      a.row_begin = r0;
      a.batch_begin = b0;
      out.plan.launches.push_back(a.spec);
      out.launches.push_back(std::move(a));
      std::optional<OffsetMaxima>& group = judged_wide ? wide : narrow;
      group = group ? max_of(*group, o) : o;
    }
  }
  // One width (the usual case): the plain names. Both: each name says which launches it covers.
  if (!narrow || !wide) {
    out.plan.indices = fixed_launch_ranges(s, out.path, narrow ? *narrow : *wide,
                                           narrow ? IndexType::int32 : IndexType::int64);
    return out;
  }
  for (const auto& [group, type, tag] : {std::tuple{&narrow, IndexType::int32, "[int32 launches]"},
                                         std::tuple{&wide, IndexType::int64, "[int64 launches]"}}) {
    for (IndexRange& r : fixed_launch_ranges(s, out.path, **group, type)) {
      r.name += tag;
      out.plan.indices.push_back(std::move(r));
    }
  }
  return out;
}

}  // namespace

std::optional<Variant> parse_variant(const std::string& name) {
  if (name == "legacy") return Variant::legacy;
  if (name == "fixed") return Variant::fixed;
  return std::nullopt;
}

std::string to_string(MatmulPath p) { return p == MatmulPath::qmv ? "qmv" : "qmm"; }

std::int32_t wrap_int32(std::int64_t v) { return static_cast<std::int32_t>(static_cast<std::uint32_t>(v)); }

LegacyBatchCount legacy_batch_count(std::uint64_t out_size, std::int32_t m, std::int32_t n) {
  const std::int32_t mn = wrap_int32(static_cast<std::int64_t>(m) * n);
  if (mn == 0) return {true, 0};
  // int -> size_t sign-extends: a negative product is a divisor near 2^64.
  const auto divisor = static_cast<std::uint64_t>(static_cast<std::int64_t>(mn));
  return {false, wrap_int32(static_cast<std::int64_t>(out_size / divisor))};
}

int qmm_tile_m(std::uint64_t m) {
  std::uint64_t p = 1;
  while (p < m && p < 64) p <<= 1;
  return static_cast<int>(std::clamp<std::uint64_t>(p, 16, 64));
}

int qmm_tile_k(int group_size) { return std::max(64, group_size); }

std::uint64_t qmm_smem_bytes(int tile_m, int tile_k, int bits, Dtype dtype) {
  const std::uint64_t elem = dtype_bytes(dtype);
  const std::uint64_t a = std::uint64_t(tile_m) * tile_k * kQmmStages * elem;
  const std::uint64_t b = kQmmTileN * tile_k * kQmmStages * static_cast<std::uint64_t>(bits) / 8;
  const std::uint64_t c = std::uint64_t(tile_m) * kQmmTileN * elem;
  return std::max(a + b, c);
}

std::uint64_t fixed_row_cap(std::uint64_t n, const DeviceLimits& limits) {
  return std::max<std::uint64_t>(1, std::min<std::uint64_t>(limits.max_grid_y, INT32_MAX / std::max<std::uint64_t>(n, 1)));
}

AffinePlan plan_matmul(const MatmulShape& shape, Variant variant, const DeviceLimits& limits) {
  return variant == Variant::legacy ? plan_legacy(shape) : plan_fixed(shape, limits);
}

std::vector<SplitPiece> split_pieces(const MatmulShape& s, const DeviceLimits& limits) {
  std::vector<SplitPiece> pieces;
  if (s.gather) {
    const std::uint64_t cap = std::min<std::uint64_t>(limits.max_grid_z, 32768);
    for (std::uint64_t b0 = 0; b0 < s.batches; b0 += cap) pieces.push_back({"pairs", b0, std::min(s.batches, b0 + cap)});
  } else {
    const std::uint64_t cap = std::min<std::uint64_t>(fixed_row_cap(s.n, limits), 8192);
    for (std::uint64_t r0 = 0; r0 < s.m; r0 += cap) pieces.push_back({"tokens", r0, std::min(s.m, r0 + cap)});
  }
  return pieces;
}

std::vector<AffineLaunch> reference_launches(const MatmulShape& s, const DeviceLimits& limits) {
  const MatmulPath path = u128{s.m} * s.batches < 8 ? MatmulPath::qmv : MatmulPath::qmm;
  const int tile_m = qmm_tile_m(s.m);
  std::vector<AffineLaunch> out;
  for (const SplitPiece& p : split_pieces(s, limits)) {
    const std::uint64_t size = p.end - p.begin;
    AffineLaunch a = s.gather ? make_launch(path, s, Variant::fixed, true, s.m, size, tile_m)
                              : make_launch(path, s, Variant::fixed, true, size, 1, tile_m);
    (s.gather ? a.batch_begin : a.row_begin) = p.begin;
    out.push_back(a);
  }
  return out;
}

}  // namespace gridfuzz::affine
