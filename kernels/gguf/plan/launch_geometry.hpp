#pragma once
// The launches of quantize_q8_1 and moe_vec/mmvq as each variant's host code computes them, with
// the offsets each launch passes to its kernel, and the index ranges of the kernels with their
// declared C++ types. Pure host code: plan(), the launchers and the CPU tests all read this.
#include <cstdint>
#include <vector>

#include "call_shape.hpp"
#include "gridfuzz/formats/host_device.hpp"
#include "gridfuzz/gguf/formats.hpp"
#include "gridfuzz/device_limits.hpp"
#include "gridfuzz/index_range.hpp"
#include "gridfuzz/launch_spec.hpp"

namespace gridfuzz::gguf {

inline constexpr std::uint64_t kQuantizeBlockThreads = 256;  // one warp per q8_1 block, 8 per CTA
inline constexpr std::uint64_t kUpstreamChunkRows = 65535;   // vLLM's hard-coded row tile

// How quantize_q8_1 is launched.
enum class QuantizeGeometry {
  one_launch,          // pre-tiling vLLM: grid (blocks_x, rows, 1), int32 index math
  upstream_tiles,      // vLLM at the moe_vec snapshot: tiles of 65535 rows, int32 offsets and indices
  tiles_64,            // ours: tiles of limits.max_grid_y rows, 64-bit offsets and indices
};

struct QuantizeLaunch {
  LaunchSpec spec;
  std::uint64_t row_offset = 0;  // first activation row of this launch
};

std::vector<QuantizeLaunch> quantize_launches(QuantizeGeometry g, std::uint64_t rows, std::uint64_t cols,
                                              const DeviceLimits& limits);
std::vector<IndexRange> quantize_indices(QuantizeGeometry g, std::uint64_t rows, std::uint64_t cols,
                                         const DeviceLimits& limits);

// Over quantize_launches(g, rows, cols, limits), the largest grid.y and the largest row_offset
// (both 0 without a launch), in closed form: the planner asks for them at every point it
// evaluates, and a tiled call at 2^32 rows has 65537 launches.
struct QuantizeChunks {
  std::uint64_t max_rows = 0;
  std::uint64_t last_offset = 0;
};
QuantizeChunks quantize_chunks(QuantizeGeometry g, std::uint64_t rows, const DeviceLimits& limits);

// tiles_64 runs its 32-bit kernel when every index of the call (input row*cols + col, output
// row*padded + col, computed in 128-bit here) stays below 2^32, else the 64-bit one: the same
// geometry either way, and quantize_indices declares the type of the one picked.
bool quantize_fits_uint32(std::uint64_t rows, std::uint64_t cols);

// How moe_vec (and mmvq, its dense sibling) is launched. One warp (block 32x1x1) per output
// element (pair, row) in every geometry.
enum class GemvGeometry {
  legacy,        // upstream: rows on x, pairs on z (mmvq: on y), one launch, 32-bit index math
  pairs_x,       // FreeToken #185 style: pairs on x, rows on y; both tiled; 64-bit
  rows_x,        // rows on x, pairs on y tiled at the y limit with a 64-bit pair offset
  zchunk,        // rows on x, pairs on z in token-aligned chunks with a 64-bit pair offset
  fixed,         // ours: rows_x below kPairsOnXFromPairs pairs, pairs_x from there (measured choice)
  by_expert,     // ours, decode: pairs grouped by expert on the device (expert_group_launches), then
                 // one block per (used expert, tile of kByExpertRowsPerBlock rows), each weight row
                 // read once per call and applied to every pair of its expert
};

// Pair count from which `fixed` puts pairs on x (evidence/performance-log.md "GGUF MoE GEMV"): with few
// pairs, rows-fastest order streams each expert's rows like upstream; with many, pairs-fastest
// keeps one weight row of every expert hot in L2 while the batch sweeps it.
inline constexpr std::uint64_t kPairsOnXFromPairs = 256;
GemvGeometry resolve(GemvGeometry g, const MoeCallShape& s);

struct GemvLaunch {
  LaunchSpec spec;
  std::uint64_t pair_offset = 0;  // first pair (output row of dst) of this launch
  std::uint64_t row_offset = 0;   // first weight row of this launch
  bool pairs_on_z = false;        // which grid axis carries the pair index (rows_x/zchunk/legacy)
  std::uint64_t expert_slot_offset = 0;  // by_expert: first used-expert slot of this launch (grid.y)
};

// by_expert's GEMV: a block of kByExpertWarps warps, warp w owning the kByExpertRowsPerWarp weight
// rows from row_offset + blockIdx.x*kByExpertRowsPerBlock + w*kByExpertRowsPerWarp of the expert in
// used-expert slot expert_slot_offset + blockIdx.y, and slice blockIdx.z of that expert's pairs (of
// gridDim.z equal slices). Grid (row tiles, expert slots, slices): rows and slots tiled at the
// device's x and y limits; the slots are min(experts, pairs) (at most that many experts can be
// used); the slices ceil(pairs / kByExpertPairsPerSlice), at most the z limit: 1 up to 4096 pairs
// (decode: each used expert's rows read once), more for prefill-sized calls, so that an expert used
// by millions of pairs is not one block's serial loop.
//
// Why 4 rows a warp and 8 pairs a batch: a lane loads each weight int (from the warp's staged rows)
// once for the batch's pairs and each activation int once for the warp's rows, so a (row, pair,
// block) costs its dp4a and scale arithmetic and little else; 4 x 8 sums a lane, reduced together
// in 31 shuffles (gemv_by_expert.cuh).
inline constexpr std::uint64_t kByExpertWarps = 4;
inline constexpr std::uint64_t kByExpertRowsPerWarp = 4;
inline constexpr std::uint64_t kByExpertRowsPerBlock = kByExpertWarps * kByExpertRowsPerWarp;
inline constexpr std::uint64_t kByExpertThreads = 32 * kByExpertWarps;
inline constexpr std::uint64_t kByExpertPairBatch = 8;
static_assert(kByExpertRowsPerWarp * kByExpertPairBatch == 32, "the transposed reduction leaves one sum a lane");
inline constexpr std::uint64_t kByExpertPairsPerSlice = 4096;
// Each warp stages its rows in shared memory in chunks of at most kByExpertStageBytes per row (plus
// 16 for the source's alignment): the kernel's static shared memory, which the plan declares.
// 16 x 1168 bytes: small enough that 4 blocks (the register-bound occupancy) leave most of the
// SM's 256 KiB to L1, where the pairs' activation rows stay while every warp of the block reads
// them. 1152 bytes is a whole row of q4_0 at 2048 columns and 4 of its warp steps.
inline constexpr std::uint64_t kByExpertStageBytes = 1152;
inline constexpr std::uint64_t kByExpertSmemBytes = kByExpertRowsPerBlock * (kByExpertStageBytes + 16);
// The blocks of type t a warp stages per row and chunk: the most that fit kByExpertStageBytes, a
// whole number of the lane mapping's steps (blocks_per_warp), so that each lane's ascending block
// sequence continues across chunks exactly as in gemv_tiled.
GRIDFUZZ_FORMATS_HD constexpr std::uint64_t by_expert_stage_chunk_blocks(QuantType t) {
  const std::uint64_t step = blocks_per_warp(t);
  return kByExpertStageBytes / quant_traits(t).block_bytes / step * step;
}
// The pre-pass (docs/KERNELS.md, "Ours: by_expert"): up to kExpertGroupOneBlockPairs pairs one
// launch, moe_expert_group (one block of kExpertScanThreads: count, scan and scatter in shared
// memory); beyond, three: count, scan, scatter. count and scatter stride over the pairs with at
// most kExpertGroupMaxBlocks blocks of kExpertGroupThreads; scan is one block of
// kExpertScanThreads threads, each taking kExpertScanPerThread experts, so the experts axis is
// bounded by kExpertGroupMaxExperts (the axis' own bound: 4096).
inline constexpr std::uint64_t kExpertGroupThreads = 256;
inline constexpr std::uint64_t kExpertGroupMaxBlocks = 4096;
inline constexpr std::uint64_t kExpertScanThreads = 1024;
inline constexpr std::uint64_t kExpertScanPerThread = 4;
inline constexpr std::uint64_t kExpertGroupMaxExperts = kExpertScanThreads * kExpertScanPerThread;
inline constexpr std::uint64_t kExpertScanSmemBytes = kExpertScanThreads * (8 + 4);  // pair and used-expert sums
inline constexpr std::uint64_t kExpertGroupOneBlockPairs = 16384;
inline constexpr std::uint64_t kExpertGroupOneBlockSmemBytes = kExpertGroupMaxExperts * 4 + kExpertScanSmemBytes;

std::vector<GemvLaunch> gemv_launches(GemvGeometry g, const MoeCallShape& s, const DeviceLimits& limits);

// The pre-pass launches of by_expert, in order: moe_expert_group alone up to
// kExpertGroupOneBlockPairs pairs, else moe_expert_count, moe_expert_scan, moe_expert_scatter
// (empty for every other geometry). Throws std::invalid_argument for a dense
// shape or more than kExpertGroupMaxExperts experts.
std::vector<LaunchSpec> expert_group_launches(GemvGeometry g, const MoeCallShape& s);
// True when the pre-pass is the one-block moe_expert_group (no zeroed counts needed).
bool expert_group_one_block(const MoeCallShape& s);


// The index type of the gemv_tiled kernel (every geometry but legacy) that the launcher picks for
// shape s: bits32 exactly when every index range of the 32-bit instantiation fits uint32
// (PyTorch's 32/64-bit index dispatch). It depends on the shape only: tiles and chunks change
// which block computes an element, not the largest index.
enum class GemvIndexWidth { bits32, bits64 };
GemvIndexWidth gemv_index_width(const MoeCallShape& s);

// by_expert's device scratch, in bytes from its start (each part 16-byte aligned): counts
// [experts] u64 (zeroed by the host before the count; unused by moe_expert_group), offsets [experts+1] u64 (exclusive scan;
// offsets[experts] = pairs), cursor [experts] u64 (the scatter's next free place per expert),
// used [experts] u32 (the used experts, ascending), n_used u32, list [pairs] of the kernel's
// index type (the pair indices, grouped by expert; the order inside a group is the atomics').
struct ExpertGroupLayout {
  std::uint64_t counts = 0, offsets = 0, cursor = 0, used = 0, n_used = 0, list = 0;
  std::uint64_t list_entry_bytes = 4;
  std::uint64_t bytes = 0;  // total
};
// `width`: the GEMV's index width, which is the list entry's (gemv_index_width(s) in production).
ExpertGroupLayout expert_group_layout(const MoeCallShape& s, GemvIndexWidth width);

// The index ranges of the kernel the variant launches. legacy: upstream's types (uint32 dst and
// activation offsets, int32 expert base and weight block index; mmvq: int32). Others: those of
// the gemv_tiled instantiation gemv_index_width picks, uint32 (then safe by construction) or
// int64, plus the in-row byte offset, an int in both.
// by_expert: the tiled kernel's ranges (its index type is the same decision) plus the pre-pass's:
// the list entry (a pair index, in the kernel's index type), the group offsets (uint64) and the
// pre-pass's strided pair index (uint64: it passes pairs - 1 by up to one stride before its loop
// ends); and the GEMV's tile row (row_offset + blockIdx.x*16 + warp*4 + r, up to the rows rounded
// up to 16, minus 1: past rows - 1 in the last tile, where the row read is clamped and nothing is
// stored).
std::vector<IndexRange> gemv_indices(GemvGeometry g, const MoeCallShape& s);

// The split-batch reference: token ranges [begin, end) with at most floor(max_grid_z / kernel_top_k)
// tokens each, so every piece's pair count fits grid.z (and the y limit) and its activation rows
// fit one quantize launch.
struct TokenRange {
  std::uint64_t begin = 0, end = 0;
};
std::vector<TokenRange> reference_token_ranges(const MoeCallShape& s, const DeviceLimits& limits);

}  // namespace gridfuzz::gguf
