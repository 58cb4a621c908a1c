#include "gridfuzz/affine/qmm_small_plan.hpp"

#include <algorithm>
#include <stdexcept>

#include "gridfuzz/checked_math.hpp"

namespace gridfuzz::affine {

int qmm_small_token_tiles(std::uint64_t m) {
  if (m == 0 || m > kQmmSmallMaxTokens) return 0;
  int tiles = 1;
  while (static_cast<std::uint64_t>(tiles) * 8 < m) tiles *= 2;
  return tiles;
}

// 4 parts only up to 2 tiles: on one H100 (evidence/2026-12-07-h100-small-m-qmm) 4 parts beat 2 at
// 2-16 tokens and lost at 32 (35.9 vs 33.2 us at 14336 x 4096, 235 vs 187 us at the LM head).
int qmm_small_k_parts(std::uint64_t k, int token_tiles) { return token_tiles <= 2 && k % 512 == 0 ? 4 : 2; }

std::uint64_t qmm_small_rows_per_block(int k_parts) { return 128 / static_cast<std::uint64_t>(k_parts); }

std::uint64_t qmm_small_chunk_k(int k_parts) { return kQmmSmallPartK * static_cast<std::uint64_t>(k_parts); }

std::uint64_t qmm_small_smem_bytes(int token_tiles, int k_parts) {
  const std::uint64_t tokens = static_cast<std::uint64_t>(std::max(token_tiles, 0)) * 8;
  return kQmmSmallStages *
         (kQmmSmallWeightStageBytes + kQmmSmallGroupStageBytes + tokens * 2 * qmm_small_chunk_k(k_parts));
}

std::optional<std::string> qmm_small_ineligible(const MatmulShape& s, const DeviceLimits& limits) {
  if (s.gather || s.batches != 1) return "gather calls take the fixed path";
  if (s.bits != 4) return "bits " + std::to_string(s.bits) + " (qmm_small is 4-bit only)";
  if (s.m == 0) return "no tokens";
  if (s.m > kQmmSmallMaxTokens) return "more than 64 tokens take the GEMM paths";
  if (!is_16bit(s.dtype)) return "dtype " + to_string(s.dtype) + " (f16 or bf16 only)";
  if (s.group_size != 32 && s.group_size != 64 && s.group_size != 128)
    return "group_size " + std::to_string(s.group_size) + " (32, 64 or 128)";
  // Whole chunks of 256 K elements at least (each chunk's scales are then whole 4-byte words), whole
  // blocks of 64 rows (or 32).
  if (s.k == 0 || s.k % 256 != 0) return "cols " + std::to_string(s.k) + " is not a multiple of 256";
  if (s.n == 0 || s.n % 64 != 0)
    return "output columns " + std::to_string(s.n) + " are not a multiple of 64";
  if (limits.cc_major < 8) return "compute capability " + limits.cc() + ": qmm_small's cp.async and bf16 mma need sm_80 or newer";
  const int tiles = qmm_small_token_tiles(s.m);
  const std::uint64_t smem = qmm_small_smem_bytes(tiles, qmm_small_k_parts(s.k, tiles));
  if (smem > limits.smem_per_block_optin)
    return "its pipeline needs " + std::to_string(smem) + " B of shared memory, the device allows " +
           std::to_string(limits.smem_per_block_optin) + " B";
  return std::nullopt;
}

AffinePlan plan_qmm_small(const MatmulShape& s, const DeviceLimits& limits, int k_parts) {
  if (auto why = qmm_small_ineligible(s, limits)) throw std::invalid_argument("qmm_small: " + *why);
  if (k_parts != 0 && k_parts != 2 && k_parts != 4) throw std::invalid_argument("qmm_small: k_parts must be 2 or 4");
  if (k_parts == 4 && s.k % 512 != 0) throw std::invalid_argument("qmm_small: 4 K parts need cols a multiple of 512");
  AffinePlan out;
  out.path = MatmulPath::qmm;
  // The fixed plan's row chunks (min(max_grid_y, INT32_MAX/n) rows: never fewer than 64 on the axes).
  const std::uint64_t row_cap = fixed_row_cap(s.n, limits);
  // Offsets the kernel forms, all in its index type: out token*n + row and x token*k + col, local to
  // the chunk (the host moves both pointers by whole rows in 64-bit); w row*(k/8) + word and scales
  // row*(k/group) + group, of the whole matrix. Padding tokens are zero-filled without forming an
  // address. One width for every launch: the widest chunk's.
  u128 out_max = 0, x_max = 0;
  for (std::uint64_t r0 = 0; r0 < s.m; r0 += row_cap) {
    const std::uint64_t rows = std::min(row_cap, s.m - r0);
    out_max = std::max(out_max, u128{rows} * s.n - 1);
    x_max = std::max(x_max, u128{rows} * s.k - 1);
  }
  const u128 w_max = u128{s.n} * s.words_per_row() - 1;
  const u128 scale_max = u128{s.n} * s.groups_per_row() - 1;
  const u128 limit = first_wrapping_value(IndexType::int32);
  const bool wide = out_max >= limit || x_max >= limit || w_max >= limit || scale_max >= limit;
  const IndexType type = wide ? IndexType::int64 : IndexType::int32;
  for (std::uint64_t r0 = 0; r0 < s.m; r0 += row_cap) {
    const std::uint64_t rows = std::min(row_cap, s.m - r0);
    AffineLaunch a;
    a.path = MatmulPath::qmm;
    a.small = true;
    a.wide_index = wide;
    a.token_tiles = qmm_small_token_tiles(rows);
    a.k_parts = k_parts != 0 ? k_parts : qmm_small_k_parts(s.k, a.token_tiles);
    a.tile_m = a.token_tiles * 8;
    a.tile_k = static_cast<int>(qmm_small_chunk_k(a.k_parts));
    a.m = static_cast<std::int64_t>(rows);
    a.n = static_cast<std::int64_t>(s.n);
    a.k = static_cast<std::int64_t>(s.k);
    a.l = 1;
    a.row_begin = r0;
    a.spec.name = wide ? "qmm_small_int64" : "qmm_small_int32";
    a.spec.grid = {s.n / qmm_small_rows_per_block(a.k_parts), 1, 1};
    a.spec.block = {kQmmSmallThreads, 1, 1};
    a.spec.dynamic_smem_bytes = qmm_small_smem_bytes(a.token_tiles, a.k_parts);
    a.spec.smem_optin = a.spec.dynamic_smem_bytes > kSmemOptinThreshold;
    out.plan.launches.push_back(a.spec);
    out.launches.push_back(std::move(a));
  }
  out.plan.indices = {
      {"out_offset", out_max, type, "elements"},
      {"x_offset", x_max, type, "elements"},
      {"w_offset", w_max, type, "words"},
      {"scale_offset", scale_max, type, "elements"},
  };
  return out;
}

}  // namespace gridfuzz::affine
