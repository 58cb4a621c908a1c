#pragma once
// Planning of qmm_small (kernels/affine/cuda/qmm_small_kernel.cuh), the 2-64 token path of
// affine.qmm's "hopper" variant (pure C++, no GPU). One pass over the weights: a block owns 64
// weight rows and the whole K, every weight is read from DRAM once and applied to all the call's
// tokens (swap-AB mma.sync: weight rows on the MMA's M side, tokens on its N side, 8 per n-tile).
// Launch: grid (n/64, 1, 1), block 256 (8 warps: 4 row tiles of 16 x 2 halves of each K chunk),
// dynamic shared memory of 4 pipeline stages, each 8192 bytes of packed weights, 2048 of scales
// and biases and 512 bytes per token of the token tile (8, 16, 32 or 64 tokens).
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
inline constexpr std::uint64_t kQmmSmallRowsPerBlock = 64;
inline constexpr std::uint64_t kQmmSmallThreads = 256;
inline constexpr std::uint64_t kQmmSmallChunkK = 256;           // K elements per pipeline stage
inline constexpr std::uint64_t kQmmSmallStages = 4;
inline constexpr std::uint64_t kQmmSmallWeightStageBytes = 8192;  // 64 rows x 128 bytes of 4-bit weights
inline constexpr std::uint64_t kQmmSmallGroupStageBytes = 2048;   // scales and biases: 64 rows x 8 groups x 2 B each
inline constexpr std::uint64_t kQmmSmallTokenStageBytes = 512;    // one token's 256 activations

// Token tiles of 8 the kernel computes for m tokens: ceil(m/8) rounded up to 1, 2, 4 or 8 (the
// compiled instantiations). 0 when m is 0 or above kQmmSmallMaxTokens.
int qmm_small_token_tiles(std::uint64_t m);
// Dynamic shared memory of the instantiation with `token_tiles` tiles.
std::uint64_t qmm_small_smem_bytes(int token_tiles);

// Why qmm_small cannot run this call (any token count from 1 to 64: the split reference runs it one
// token at a time) on `limits`' device, or nullopt when it can.
std::optional<std::string> qmm_small_ineligible(const MatmulShape& s, const DeviceLimits& limits);

// The launches (call only when eligible; throws std::invalid_argument otherwise).
AffinePlan plan_qmm_small(const MatmulShape& s, const DeviceLimits& limits);

}  // namespace gridfuzz::affine
