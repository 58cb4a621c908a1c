#pragma once
// Planning of qmm_small (kernels/affine/cuda/qmm_small_kernel.cuh), the 2-64 token path of
// affine.qmm's "hopper" variant (pure C++, no GPU). One pass over the weights: a block owns
// 128/parts weight rows and the whole K, every weight is read from DRAM once and applied to all
// the call's tokens (swap-AB mma.sync: weight rows on the MMA's M side, tokens on its N side, 8 per
// n-tile). Its 8 warps split every K chunk of 128*parts elements into `parts` (4 up to 32 tokens
// when K is a multiple of 512: 32 rows a block, twice the warps of 2 parts on the same rows; else 2:
// 64 rows a block).
// Launch: grid (n/(128/parts), 1, 1), block 256, dynamic shared memory of 4 pipeline stages, each
// 8192 bytes of packed weights, 2048 of scales and biases and 256*parts bytes per token of the
// token tile (8, 16, 32 or 64 tokens).
// The launches are the fixed plan's row chunks (one chunk for every shape of the axes: m <= 64);
// their index width is chosen as the fixed qmm's is, over the offsets this kernel forms (out, x,
// w and scales, all in the index type).
#include <cstdint>
#include <optional>
#include <string>

#include "gridfuzz/affine/matmul_plan.hpp"
#include "gridfuzz/device_limits.hpp"

namespace gridfuzz::affine {

inline constexpr std::uint64_t kQmmSmallMaxTokens = 64;       // 8 n-tiles of 8 tokens
// The hopper variant's crossover: from 2 tokens on qmm_small reads the weights once where
// qmv_stream reads them once per token; 1 token stays on qmv_stream (the same bytes, no MMA padding).
inline constexpr std::uint64_t kQmmSmallMinTokens = 2;
inline constexpr std::uint64_t kQmmSmallThreads = 256;
inline constexpr std::uint64_t kQmmSmallPartK = 128;             // K elements of one part of a chunk
inline constexpr std::uint64_t kQmmSmallStages = 4;
inline constexpr std::uint64_t kQmmSmallWeightStageBytes = 8192;  // 128/parts rows x 64*parts bytes of 4-bit weights
inline constexpr std::uint64_t kQmmSmallGroupStageBytes = 2048;   // scales and biases: up to 4*parts groups a row

// Token tiles of 8 the kernel computes for m tokens: ceil(m/8) rounded up to 1, 2, 4 or 8 (the
// compiled instantiations). 0 when m is 0 or above kQmmSmallMaxTokens.
int qmm_small_token_tiles(std::uint64_t m);
// K parts for a call of k columns and `token_tiles` tiles: 4 up to 2 tiles (16 tokens) when k is a
// multiple of 512, else 2.
int qmm_small_k_parts(std::uint64_t k, int token_tiles);
// Weight rows per block (64 or 32) and K elements per chunk (256 or 512) of `k_parts` parts.
std::uint64_t qmm_small_rows_per_block(int k_parts);
std::uint64_t qmm_small_chunk_k(int k_parts);
// Dynamic shared memory of the instantiation with `token_tiles` tiles and `k_parts` parts.
std::uint64_t qmm_small_smem_bytes(int token_tiles, int k_parts);

// Why qmm_small cannot run this call (any token count from 1 to 64: the split reference runs it one
// token at a time) on `limits`' device, or nullopt when it can.
std::optional<std::string> qmm_small_ineligible(const MatmulShape& s, const DeviceLimits& limits);

// The launches (call only when eligible; throws std::invalid_argument otherwise). k_parts 0: the
// rule of qmm_small_k_parts; 2 or 4: that many (the split reference runs its one-token pieces with
// the whole call's parts, so that every output sums its K in the same order).
AffinePlan plan_qmm_small(const MatmulShape& s, const DeviceLimits& limits, int k_parts = 0);

}  // namespace gridfuzz::affine
