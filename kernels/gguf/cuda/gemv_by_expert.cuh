#pragma once
// Device code of the by_expert moe_vec (docs/KERNELS.md, "Ours: by_expert"): a pre-pass that
// groups the (token, slot) pairs by expert, then a GEMV whose block owns (used expert, tile of
// kByExpertRowsPerBlock weight rows) and applies each weight row to every pair of its expert.
//
// Each output element dst[p, row] is still one warp's sum: lane l adds block_dot over the blocks
// i = l/lanes, l/lanes + step, ... in ascending order, as gemv_tiled does, and the warp reduces
// with the same butterfly, so the result is bit-equal to every other non-legacy geometry's. The
// order of the pairs in a group (set by the scatter's atomics) decides only which element is
// computed first, never a value.
#include <cstdint>
#include <type_traits>

#include "gemv_kernel.cuh"
#include "launch_geometry.hpp"

namespace gridfuzz::gguf::device_code {

// Experts are counted, scanned and scattered with warp-aggregated atomics: the lanes of a warp
// that hold the same expert elect one lane, which adds their number at once.
__device__ __forceinline__ unsigned lanes_below_mask() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return m;
}

__global__ void __launch_bounds__(kExpertGroupThreads) moe_expert_count(ExpertGroupArgs g) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t p = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; p < g.pairs; p += stride) {
    const int e = g.ids[p];
    // An id outside [0, experts) is counted nowhere: its pair stays unwritten (poison shows it).
    const int key = e >= 0 && static_cast<std::uint64_t>(e) < g.experts ? e : -1;
    const unsigned peers = __match_any_sync(__activemask(), key);
    if (key >= 0 && (lanes_below_mask() & peers) == 0) atomicAdd(&g.counts[key], static_cast<unsigned long long>(__popc(peers)));
  }
}

// Run by all kExpertScanThreads threads of one block: the exclusive scan of the experts' counts
// (count_of(e)) into offsets, each expert's first place handed to set_cursor(e, at), and the list
// of the used experts in ascending order with their number. Thread t owns experts
// [t*per, t*per + per). s_pairs and s_used: kExpertScanThreads entries each.
template <class CountOf, class SetCursor>
__device__ __forceinline__ void scan_expert_counts(const ExpertGroupArgs& g, CountOf count_of, SetCursor set_cursor,
                                                   unsigned long long* s_pairs, unsigned* s_used) {
  constexpr int per = static_cast<int>(kExpertScanPerThread);
  constexpr int threads = static_cast<int>(kExpertScanThreads);
  const int t = static_cast<int>(threadIdx.x);
  unsigned long long c[per];
  unsigned long long pairs = 0;
  unsigned used = 0;
  for (int j = 0; j < per; ++j) {
    const std::uint64_t e = std::uint64_t(t) * per + j;
    c[j] = e < g.experts ? count_of(e) : 0;
    pairs += c[j];
    used += c[j] != 0;
  }
  s_pairs[t] = pairs;
  s_used[t] = used;
  __syncthreads();
  for (int off = 1; off < threads; off <<= 1) {  // inclusive Hillis-Steele scan of both
    const unsigned long long a = t >= off ? s_pairs[t - off] : 0;
    const unsigned b = t >= off ? s_used[t - off] : 0;
    __syncthreads();
    s_pairs[t] += a;
    s_used[t] += b;
    __syncthreads();
  }
  unsigned long long at = s_pairs[t] - pairs;
  unsigned slot = s_used[t] - used;
  for (int j = 0; j < per; ++j) {
    const std::uint64_t e = std::uint64_t(t) * per + j;
    if (e >= g.experts) break;
    g.offsets[e] = at;
    set_cursor(e, at);
    if (c[j] != 0) g.used[slot++] = static_cast<std::uint32_t>(e);
    at += c[j];
  }
  if (t == threads - 1) {
    g.offsets[g.experts] = s_pairs[t];
    *g.n_used = s_used[t];
  }
}

// The multi-block path's scan: counts and cursors in the scratch.
__global__ void __launch_bounds__(kExpertScanThreads) moe_expert_scan(ExpertGroupArgs g) {
  __shared__ unsigned long long s_pairs[kExpertScanThreads];
  __shared__ unsigned s_used[kExpertScanThreads];
  static_assert(sizeof(s_pairs) + sizeof(s_used) == kExpertScanSmemBytes);
  scan_expert_counts(
      g, [&](std::uint64_t e) { return g.counts[e]; }, [&](std::uint64_t e, unsigned long long at) { g.cursor[e] = at; },
      s_pairs, s_used);
}

// Up to kExpertGroupOneBlockPairs pairs (every decode call): count, scan and scatter in one block,
// counts and cursors in shared memory (32-bit: fewer than 2^32 pairs), so the pre-pass is one
// launch and needs no zeroed scratch.
template <class Index>
__global__ void __launch_bounds__(kExpertScanThreads) moe_expert_group(ExpertGroupArgs g) {
  __shared__ unsigned s_count[kExpertGroupMaxExperts];  // the counts, then the cursors
  __shared__ unsigned long long s_pairs[kExpertScanThreads];
  __shared__ unsigned s_used[kExpertScanThreads];
  static_assert(sizeof(s_count) + sizeof(s_pairs) + sizeof(s_used) == kExpertGroupOneBlockSmemBytes);
  const unsigned t = threadIdx.x;
  for (unsigned e = t; e < kExpertGroupMaxExperts; e += blockDim.x) s_count[e] = 0;
  __syncthreads();
  for (std::uint64_t p = t; p < g.pairs; p += blockDim.x) {
    const int e = g.ids[p];
    if (e >= 0 && static_cast<std::uint64_t>(e) < g.experts) atomicAdd(&s_count[e], 1u);
  }
  __syncthreads();
  scan_expert_counts(
      g, [&](std::uint64_t e) { return static_cast<unsigned long long>(s_count[e]); },
      [&](std::uint64_t e, unsigned long long at) { s_count[e] = static_cast<unsigned>(at); }, s_pairs, s_used);
  __syncthreads();
  Index* list = static_cast<Index*>(g.list);
  for (std::uint64_t p = t; p < g.pairs; p += blockDim.x) {
    const int e = g.ids[p];
    if (e >= 0 && static_cast<std::uint64_t>(e) < g.experts) list[atomicAdd(&s_count[e], 1u)] = static_cast<Index>(p);
  }
}

template <class Index>
__global__ void __launch_bounds__(kExpertGroupThreads) moe_expert_scatter(ExpertGroupArgs g) {
  Index* list = static_cast<Index*>(g.list);
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t p = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; p < g.pairs; p += stride) {
    const int e = g.ids[p];
    const int key = e >= 0 && static_cast<std::uint64_t>(e) < g.experts ? e : -1;
    const unsigned peers = __match_any_sync(__activemask(), key);
    const int leader = __ffs(static_cast<int>(peers)) - 1;
    unsigned long long base = 0;
    if (key >= 0 && static_cast<int>(threadIdx.x % 32) == leader)
      base = atomicAdd(&g.cursor[key], static_cast<unsigned long long>(__popc(peers)));
    base = __shfl_sync(peers, base, leader);
    if (key >= 0) list[base + __popc(peers & lanes_below_mask())] = static_cast<Index>(p);
  }
}

// Per warp, a chunk of its weight row is staged in shared memory with 16-byte loads (all issued
// before any is used: the DRAM stream), then read by block_dot once per pair. A chunk is at most
// kStageBytes, a whole number of `step`s of blocks so that every lane's block sequence continues
// across chunks exactly as in gemv_tiled.
inline constexpr int kStageBytes = static_cast<int>(kByExpertStageBytes);
inline constexpr int kPairBatch = 4;  // pairs whose sums a lane holds at once

template <QuantType T>
__host__ __device__ constexpr int stage_chunk_blocks() {
  constexpr int step = static_cast<int>(blocks_per_warp(T));
  constexpr int fit = kStageBytes / static_cast<int>(quant_traits(T).block_bytes);
  return fit / step * step;
}

// Copies `bytes` (even) from `src` (2-byte aligned) to `dst_base + (src % 16)` (dst_base 16-byte
// aligned), so the 16-byte-aligned part of the source moves with 16-byte loads and stores.
__device__ __forceinline__ void stage_row_chunk(const std::uint8_t* src, int bytes, std::uint8_t* dst_base, int lane) {
  const int mis = static_cast<int>(reinterpret_cast<std::uintptr_t>(src) & 15u);
  std::uint8_t* dst = dst_base + mis;
  const int head = mis == 0 ? 0 : (16 - mis < bytes ? 16 - mis : bytes);
  const int body = (bytes - head) / 16;
  const int tail_at = head + body * 16;
  for (int k = lane; k < head / 2; k += 32)
    reinterpret_cast<std::uint16_t*>(dst)[k] = __ldg(reinterpret_cast<const std::uint16_t*>(src) + k);
  const auto* s4 = reinterpret_cast<const uint4*>(src + head);
  auto* d4 = reinterpret_cast<uint4*>(dst + head);
#pragma unroll 4
  for (int k = lane; k < body; k += 32) d4[k] = __ldg(s4 + k);
  for (int k = lane; k < (bytes - tail_at) / 2; k += 32)
    reinterpret_cast<std::uint16_t*>(dst + tail_at)[k] = __ldg(reinterpret_cast<const std::uint16_t*>(src + tail_at) + k);
}

// Index: as gemv_tiled's (uint32 exactly when gemv_index_width proved every index fits, including
// the list entries, which are pair indices < pairs).
template <QuantType T, class OutT, class Index>
__global__ void __launch_bounds__(32 * kByExpertRowsPerBlock) gemv_by_expert(GemvArgs a, ExpertGroupArgs g) {
  static_assert(std::is_same_v<Index, std::uint32_t> || std::is_same_v<Index, std::uint64_t>);
  constexpr int lanes = static_cast<int>(lanes_per_block(T));
  constexpr int step = static_cast<int>(blocks_per_warp(T));
  constexpr int block_bytes = static_cast<int>(quant_traits(T).block_bytes);
  constexpr int act_blocks_per_block = static_cast<int>(quant_traits(T).qk / 32);
  constexpr int chunk = stage_chunk_blocks<T>();
  static_assert(chunk >= step && chunk * block_bytes <= kStageBytes);
  constexpr int warps = static_cast<int>(kByExpertRowsPerBlock);
  __shared__ alignas(16) std::uint8_t stage[warps][kStageBytes + 16];
  static_assert(sizeof(stage) == kByExpertSmemBytes);

  const std::uint64_t slot = g.expert_slot_offset + blockIdx.y;
  if (slot >= *g.n_used) return;  // fewer experts used than slots: the block does nothing
  const int warp = static_cast<int>(threadIdx.x / 32), lane = static_cast<int>(threadIdx.x % 32);
  const Index nrows = static_cast<Index>(a.nrows);
  const Index row = static_cast<Index>(a.row_offset) + static_cast<Index>(blockIdx.x) * warps + warp;
  if (row >= nrows) return;  // the whole warp
  const Index expert = static_cast<Index>(g.used[slot]);
  const Index row_block = (expert * nrows + row) * static_cast<Index>(a.blocks_per_row);
  const std::uint8_t* w = a.weights + static_cast<std::uint64_t>(row_block) * block_bytes;
  const int blocks_per_row = static_cast<int>(a.blocks_per_row);
  std::uint8_t* my_stage = stage[warp];
  int staged = -1;  // first block of the chunk in my_stage
  // With one slice (up to kByExpertPairsPerSlice pairs: decode) every used expert has pairs for
  // this block, so its row's first chunk is loaded at once, while the pair list is read.
  if (gridDim.z == 1) {
    stage_row_chunk(w, (blocks_per_row < chunk ? blocks_per_row : chunk) * block_bytes, my_stage, lane);
    staged = 0;
  }
  // This block's slice of the expert's pairs: gridDim.z equal slices (launch_geometry.hpp).
  const std::uint64_t first = g.offsets[expert];
  const PairSlice mine = pair_slice(g.offsets[expert + 1] - first, gridDim.z, blockIdx.z);
  if (mine.lo >= mine.hi) return;  // the whole block: an expert with fewer pairs than slices
  const std::uint64_t begin = first + mine.lo, end = first + mine.hi;
  const Index* list = static_cast<const Index*>(g.list);
  for (std::uint64_t b = begin; b < end; b += kPairBatch) {
    const int n = end - b < kPairBatch ? static_cast<int>(end - b) : kPairBatch;
    Index p[kPairBatch];
    const block_q8_1* x[kPairBatch];
#pragma unroll
    for (int j = 0; j < kPairBatch; ++j) {
      p[j] = list[b + (j < n ? j : 0)];
      const Index token = token_of(p[j], a);
      x[j] = reinterpret_cast<const block_q8_1*>(a.act + static_cast<std::uint64_t>(token * static_cast<Index>(a.token_stride)));
    }
    float sum[kPairBatch];
#pragma unroll
    for (int j = 0; j < kPairBatch; ++j) sum[j] = 0.0f;
    for (int c0 = 0; c0 < blocks_per_row; c0 += chunk) {
      const int c1 = blocks_per_row - c0 < chunk ? blocks_per_row : c0 + chunk;
      const std::uint8_t* src = w + c0 * block_bytes;
      if (staged != c0) {
        __syncwarp();  // every lane is done reading the previous chunk
        stage_row_chunk(src, (c1 - c0) * block_bytes, my_stage, lane);
        staged = c0;
      }
      __syncwarp();  // the chunk's bytes, staged by every lane, visible to every lane
      const std::uint8_t* sw = my_stage + (reinterpret_cast<std::uintptr_t>(src) & 15u);  // block c0
      for (int i = c0 + lane / lanes; i < c1; i += step) {
#pragma unroll
        for (int j = 0; j < kPairBatch; ++j)
          if (j < n) sum[j] += block_dot<T>(sw + (i - c0) * block_bytes, x[j] + i * act_blocks_per_block, lane % lanes);
      }
    }
#pragma unroll
    for (int j = 0; j < kPairBatch; ++j) {
      if (j < n) {
        const float v = warp_sum_butterfly(sum[j]);
        if (lane == 0) store_out(static_cast<OutT*>(a.dst), static_cast<std::uint64_t>(p[j] * nrows + row), v);
      }
    }
  }
}

}  // namespace gridfuzz::gguf::device_code
