#pragma once
// Planning of qmv_stream (kernels/affine/cuda/qmv_stream_kernel.cuh), the M < 8 path of
// affine.qmm's "hopper" variant (pure C++, no GPU). The launches are the fixed plan's qmv launches
// (same token chunks, same 32/64-bit choice, same index ranges: the kernel forms the same offsets)
// with qmv_stream's geometry: block (32, 8), grid.x = min(ceil(n/8), sm_count * blocks_per_sm) (the
// warps loop over the rows), grid.y = the chunk's tokens, and the whole activation row staged in
// dynamic shared memory (9216 bytes per 4096-element tile).
#include <cstdint>
#include <optional>
#include <string>

#include "gridfuzz/affine/matmul_plan.hpp"
#include "gridfuzz/device_limits.hpp"

namespace gridfuzz::affine {

inline constexpr std::uint64_t kQmvStreamBlocksPerSm = 3;  // 76-78 registers: 3 blocks of 256 per SM
inline constexpr std::uint64_t kQmvStreamTileElements = 4096;
inline constexpr std::uint64_t kQmvStreamTileSmemBytes = 9216;  // 4096/8 uint4 pairs + 4096/16 float sums

// Dynamic shared memory for a row of k elements: whole tiles (a partial tile uses the full layout).
std::uint64_t qmv_stream_smem_bytes(std::uint64_t k);

// Why qmv_stream cannot run this call on `limits`' device, or nullopt when it can.
std::optional<std::string> qmv_stream_ineligible(const MatmulShape& s, const DeviceLimits& limits);

// The launches (call only when eligible). blocks_per_sm is the grid's blocks per SM (the bench
// compares a few; production uses kQmvStreamBlocksPerSm).
AffinePlan plan_qmv_stream(const MatmulShape& s, const DeviceLimits& limits,
                           std::uint64_t blocks_per_sm = kQmvStreamBlocksPerSm);

}  // namespace gridfuzz::affine
