#pragma once
// Planning of qmv_stream (kernels/affine/cuda/qmv_stream_kernel.cuh), the M < 8 path of
// affine.qmm's "hopper" variant (pure C++, no GPU). The launches are the fixed plan's qmv launches
// (same token chunks, same 32/64-bit choice, same index ranges: the kernel forms the same offsets)
// with qmv_stream's geometry: block (32, 8), grid.x = min(ceil(n/8), sm_count * resident blocks per
// SM) (the warps loop over the rows), grid.y = the chunk's tokens, and dynamic shared memory for the
// whole activation row (8704 bytes per 4096-element tile) plus each warp's ring of weight stages
// (8 warps x 3 stages x 2048 bytes).
#include <cstdint>
#include <optional>
#include <string>

#include "gridfuzz/affine/matmul_plan.hpp"
#include "gridfuzz/device_limits.hpp"

namespace gridfuzz::affine {

inline constexpr std::uint64_t kQmvStreamBlocksPerSm = 3;  // at most 80 registers: 3 blocks of 256 per SM
inline constexpr std::uint64_t kQmvStreamTileElements = 4096;
inline constexpr std::uint64_t kQmvStreamTileSmemBytes = 8704;  // 4096/8 uint4 pairs + 4096/32 float sums
inline constexpr std::uint64_t kQmvStreamRingSmemBytes = 8 * 3 * 2048;  // warps x stages x one item's weights
// Shared memory the hardware keeps per resident block beside the block's own (1 KiB on sm_80 to
// sm_90); an SM's capacity is the per-block opt-in limit plus this (228 KiB = 227 + 1 on sm_90).
inline constexpr std::uint64_t kSmemReservedPerBlock = 1024;

// Dynamic shared memory for a row of k elements: whole tiles (a partial tile uses the full layout)
// and the warps' rings.
std::uint64_t qmv_stream_smem_bytes(std::uint64_t k);

// Blocks of qmv_stream per SM for a row of k elements: `wanted`, or fewer where the shared memory of
// that many would not fit one SM (at least 1), so that the persistent grid is resident at once.
std::uint64_t qmv_stream_resident_blocks(std::uint64_t k, const DeviceLimits& limits, std::uint64_t wanted);

// Why qmv_stream cannot run this call on `limits`' device, or nullopt when it can.
std::optional<std::string> qmv_stream_ineligible(const MatmulShape& s, const DeviceLimits& limits);

// The launches (call only when eligible). blocks_per_sm is the grid's blocks per SM wanted (the
// bench compares a few; production uses kQmvStreamBlocksPerSm), lowered by qmv_stream_resident_blocks.
AffinePlan plan_qmv_stream(const MatmulShape& s, const DeviceLimits& limits,
                           std::uint64_t blocks_per_sm = kQmvStreamBlocksPerSm);

}  // namespace gridfuzz::affine
