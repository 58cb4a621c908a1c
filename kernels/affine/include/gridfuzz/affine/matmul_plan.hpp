#pragma once
// Host planning of one MLX-style affine quantized matmul call (dense LM head or MoE gather):
// which kernel the host dispatches (qmv or qmm), the launches it issues, and the index ranges
// inside them. Pure host code, so `gridfuzz plan` and the CPU tests need no GPU.
//
// The `legacy` variant reproduces upstream's host arithmetic exactly
// (docs/KERNELS.md, "MLX dispatch", "MLX kernel geometry", "Boundary formulas"): m, n as int32,
// l = out.size() / (m*n) with the int32 product, the int32 dispatch test m*l < 8, and one launch
// with l on grid.z. The `fixed` variant divides in 64-bit, splits rows to
// min(max_grid_y, INT32_MAX / n) and batches to max_grid_z, and picks each launch's index width
// from exact bounds: the int32 kernel when every offset that launch forms is below 2^31, else the
// int64 one. Its plan declares the ranges of the kernel picked (int32 or int64), so a fixed plan
// is index-safe by construction.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gridfuzz/affine/formats.hpp"
#include "gridfuzz/checked_math.hpp"
#include "gridfuzz/device_limits.hpp"
#include "gridfuzz/kernel.hpp"
#include "gridfuzz/launch_plan.hpp"

namespace gridfuzz::affine {

enum class Variant { legacy, fixed };
std::optional<Variant> parse_variant(const std::string& name);  // "legacy" | "fixed"

enum class MatmulPath { qmv, qmm };
std::string to_string(MatmulPath p);

// Geometry constants of the two kernels (docs/KERNELS.md, "MLX kernel geometry").
inline constexpr std::uint64_t kQmvColsPerBlock = 8;   // block (32, 8): one warp per column
inline constexpr std::uint64_t kQmmTileN = 128;
inline constexpr std::uint64_t kQmmThreads = 128;      // 4 warps
inline constexpr std::uint64_t kQmmStages = 3;         // cp.async pipeline depth
// Upstream raises the dynamic-smem attribute above this many bytes.
inline constexpr std::uint64_t kSmemOptinThreshold = 48000;

// One production call with its true (unwrapped) sizes.
struct MatmulShape {
  bool gather = false;
  std::uint64_t m = 1;        // rows per batch slice: dense tokens; gather 1 (mlx-lm sorted form)
  std::uint64_t n = 128;      // output columns: vocab (dense) or expert rows (gather)
  std::uint64_t k = 64;       // reduction length (cols)
  std::uint64_t batches = 1;  // dense 1; gather tokens*top_k (one slice per (token, expert) pair)
  std::uint64_t x_batches = 1;  // [m, k] activation slices in x: dense 1, gather tokens (lhs values < this)
  std::uint64_t experts = 1;  // weight matrices stacked in w (dense 1)
  int bits = 4;
  int group_size = 64;
  Dtype dtype = Dtype::bfloat16;

  std::uint64_t out_elements() const { return batches * m * n; }
  std::uint64_t words_per_row() const { return k * static_cast<std::uint64_t>(bits) / 32; }
  std::uint64_t groups_per_row() const { return k / static_cast<std::uint64_t>(group_size); }
};

// One kernel launch and the arguments the adapter derives its device arguments from.
struct AffineLaunch {
  MatmulPath path = MatmulPath::qmm;
  bool wide_index = false;      // int64 index math, or int32 (legacy always; fixed when its bounds fit)
  bool stream = false;          // qmv only: the qmv_stream kernel (qmv_stream_plan.hpp) instead of MLX's qmv
  bool small = false;           // qmm only: the qmm_small kernel (qmm_small_plan.hpp) instead of the sm80 tile
  int token_tiles = 0;          // qmm_small only: n-tiles of 8 tokens (1, 2, 4 or 8)
  int k_parts = 0;              // qmm_small only: K parts of a block's warps (2: 64 rows a block, 4: 32)
  int tile_m = 16;              // qmm only
  int tile_k = 64;              // qmm only
  LaunchSpec spec;
  // The values the kernel receives, as the host computed them (legacy: possibly wrapped int32).
  std::int64_t m = 0, n = 0, k = 0, l = 0;
  std::uint64_t row_begin = 0;    // dense chunk: first row of x and out
  std::uint64_t batch_begin = 0;  // gather chunk: first pair (out slice and index arrays)
};

struct AffinePlan {
  LaunchPlan plan;                     // what the Predictor judges
  std::vector<AffineLaunch> launches;  // the same launches, with kernel arguments
  MatmulPath path = MatmulPath::qmm;   // the dispatched kernel (meaningless on host_error)
};

// --- the legacy host arithmetic, exposed for the tests ---
// Two's complement int32 value of v (what an int holds after a wrapping computation).
std::int32_t wrap_int32(std::int64_t v);
struct LegacyBatchCount {
  bool div_by_zero = false;  // int32 m*n wrapped to exactly 0
  std::int32_t l = 0;        // out.size() / size_t(int32 m*n), then stored in an int
};
// out.size() / (m*n) with m*n an int32 product converted to size_t (a negative product becomes
// a huge divisor, so l = 0).
LegacyBatchCount legacy_batch_count(std::uint64_t out_size, std::int32_t m, std::int32_t n);

// tile_m = clamp(next_pow2(m), 16, 64); tile_k = max(64, group_size).
int qmm_tile_m(std::uint64_t m);
int qmm_tile_k(int group_size);
// max(sA + sB, sC) for 3 stages: sA = tile_m*tile_k*3 activations, sB = 128*tile_k*3 quants,
// sC = tile_m*128 outputs (docs/KERNELS.md, "MLX qmm_sm80").
std::uint64_t qmm_smem_bytes(int tile_m, int tile_k, int bits, Dtype dtype);

// The rows a fixed dense chunk may hold: min(max_grid_y, INT32_MAX / n) (qmv has m on grid.y; the
// INT32_MAX / n term keeps every row*n offset of a chunk inside int32, as the upstream fix does).
std::uint64_t fixed_row_cap(std::uint64_t n, const DeviceLimits& limits);

AffinePlan plan_matmul(const MatmulShape& shape, Variant variant, const DeviceLimits& limits);

// --- the split-batch reference ---
// Pieces safe under every limit, deliberately smaller than the fixed variant's chunks so that the
// reference does not share the production chunk boundaries: dense row chunks of
// min(fixed_row_cap, 8192) rows; gather pair chunks of min(max_grid_z, 32768) pairs.
std::vector<SplitPiece> split_pieces(const MatmulShape& shape, const DeviceLimits& limits);
// The launches that compute the pieces: the 64-bit kernel with the path and tile the whole call
// dispatches, so that every output element is computed by the same instruction sequence.
std::vector<AffineLaunch> reference_launches(const MatmulShape& shape, const DeviceLimits& limits);

}  // namespace gridfuzz::affine
