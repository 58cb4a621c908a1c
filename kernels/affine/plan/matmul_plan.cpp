#include "gridfuzz/affine/matmul_plan.hpp"

#include <algorithm>
#include <climits>

namespace gridfuzz::affine {
namespace {

// Largest value of an index whose exclusive bound is `count` (0 when nothing runs).
u128 last_index(u128 count) { return count == 0 ? 0 : count - 1; }

Dim3 qmv_grid(std::uint64_t n, std::uint64_t m, std::uint64_t l) { return {ceil_div(n, kQmvColsPerBlock), m, l}; }

LaunchSpec make_spec(MatmulPath path, const MatmulShape& s, bool wide, Dim3 grid, int tile_m, int tile_k) {
  LaunchSpec spec;
  spec.name = std::string(path == MatmulPath::qmv ? (s.gather ? "gather_qmv" : "qmv") : "qmm_sm80") +
              (wide ? "_fixed" : "_legacy");
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

AffineLaunch make_launch(MatmulPath path, const MatmulShape& s, bool wide, std::uint64_t rows, std::uint64_t batches,
                         int tile_m) {
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
  a.spec = make_spec(path, s, wide, grid, tile_m, a.tile_k);
  return a;
}

// The index expressions of both kernels, for `slices` batch slices of m rows (KERNELS.md 4.3):
//   out:    batch*(m*n) + row*n + col
//   x:      a_batch*(m*k) + row*k + col, a_batch = batch (dense) or lhs[batch] < x_batches (gather)
//   w:      b_batch*(n*kw) + col*kw + word, b_batch = 0 (dense, broadcast) or rhs[batch] < experts
//   scales: b_batch*(n*kg) + col*kg + group
std::vector<IndexRange> index_ranges(const MatmulShape& s, u128 slices, IndexType type) {
  const u128 x_slices = s.gather ? u128{s.x_batches} : slices;
  return {
      {"out_offset", last_index(slices * s.m * s.n), type, "elements"},
      {"x_offset", last_index(x_slices * s.m * s.k), type, "elements"},
      {"w_offset", last_index(u128{s.experts} * s.n * s.words_per_row()), type, "words"},
      {"scale_offset", last_index(u128{s.experts} * s.n * s.groups_per_row()), type, "elements"},
  };
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
  AffineLaunch a = make_launch(out.path, s, false, static_cast<std::uint64_t>(m), grid_z, tile_m);
  a.l = l;
  out.launches.push_back(a);
  out.plan.launches.push_back(a.spec);
  out.plan.indices = index_ranges(s, grid_z, IndexType::int32);
  if (out.path == MatmulPath::qmv && s.gather) {
    // gather_qmv's weight offset is (int64(col) + n*w_batch)*row_words with n*w_batch an int.
    out.plan.indices.push_back({"w_batch_rows", u128{s.n} * (s.experts - 1), IndexType::int32, "rows"});
  }
  return out;
}

AffinePlan plan_fixed(const MatmulShape& s, const DeviceLimits& limits) {
  AffinePlan out;
  out.path = u128{s.m} * s.batches < 8 ? MatmulPath::qmv : MatmulPath::qmm;
  const int tile_m = qmm_tile_m(s.m);
  const std::uint64_t row_cap = fixed_row_cap(s.n, limits);
  const std::uint64_t batch_cap = limits.max_grid_z;
  for (std::uint64_t b0 = 0; b0 < s.batches; b0 += batch_cap) {
    const std::uint64_t bc = std::min(batch_cap, s.batches - b0);
    for (std::uint64_t r0 = 0; r0 < s.m; r0 += row_cap) {
      AffineLaunch a = make_launch(out.path, s, true, std::min(row_cap, s.m - r0), bc, tile_m);
      a.row_begin = r0;
      a.batch_begin = b0;
      out.launches.push_back(a);
      out.plan.launches.push_back(a.spec);
    }
  }
  out.plan.indices = index_ranges(s, s.batches, IndexType::int64);
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
    AffineLaunch a = s.gather ? make_launch(path, s, true, s.m, size, tile_m) : make_launch(path, s, true, size, 1, tile_m);
    (s.gather ? a.batch_begin : a.row_begin) = p.begin;
    out.push_back(a);
  }
  return out;
}

}  // namespace gridfuzz::affine
