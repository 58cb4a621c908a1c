#pragma once
// Device code of the by_expert moe_vec (docs/KERNELS.md, "Ours: by_expert"): a pre-pass that
// groups the (token, slot) pairs by expert, then a GEMV whose block owns (used expert, tile of
// kByExpertRowsPerBlock weight rows) and whose warps apply each of their rows to every pair of
// the expert, kPairBatch pairs at a time.
//
// Each output element dst[p, row] is still one warp's sum: lane l adds block_dot over the blocks
// i = l/lanes, l/lanes + step, ... in ascending order, as gemv_tiled does, and the warp reduces
// with the butterfly's additions, so the result is bit-equal to every other non-legacy geometry's. The
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

// Per warp, a chunk of each of its rows is staged in shared memory, then every lane reads its part
// of each staged block once for the batch's pairs (block_dot's weight loads, the same for every
// pair, are loaded once: nothing is stored between them). A chunk is at most kStageBytes, a whole
// number of `step`s of blocks (by_expert_stage_chunk_blocks) so that every lane's block sequence
// continues across chunks exactly as in gemv_tiled.
inline constexpr int kStageBytes = static_cast<int>(kByExpertStageBytes);
inline constexpr int kRowsPerWarp = static_cast<int>(kByExpertRowsPerWarp);
inline constexpr int kPairBatch = static_cast<int>(kByExpertPairBatch);  // pairs whose sums a lane holds at once
inline constexpr int kWarps = static_cast<int>(kByExpertWarps);

// One 16-byte copy from global to shared memory without a register round trip (cp.async, sm_80 and
// later; .cg: cached in L2 only, so the weights streaming through leave L1 to the activation rows
// that every warp of the block reads). Both addresses 16-byte aligned.
__device__ __forceinline__ void copy16_async(void* smem, const void* gmem) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned to = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(to), "l"(gmem) : "memory");
#else
  *static_cast<uint4*>(smem) = __ldg(static_cast<const uint4*>(gmem));
#endif
}

// Waits for this thread's copy16_async copies (the warp's __syncwarp after it makes every lane's
// visible to every lane).
__device__ __forceinline__ void copies_arrived() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

// Starts copying `bytes` (even) from `src` (2-byte aligned) to `dst_base + (src % 16)` (dst_base
// 16-byte aligned): the 16-byte-aligned part of the source with asynchronous 16-byte copies (all in
// flight at once: the DRAM stream), the unaligned ends with 2-byte loads. Complete after
// copies_arrived().
__device__ __forceinline__ void stage_row_chunk(const std::uint8_t* src, int bytes, std::uint8_t* dst_base, int lane) {
  const int mis = static_cast<int>(reinterpret_cast<std::uintptr_t>(src) & 15u);
  std::uint8_t* dst = dst_base + mis;
  const int head = mis == 0 ? 0 : (16 - mis < bytes ? 16 - mis : bytes);
  const int body = (bytes - head) / 16;
  const int tail_at = head + body * 16;
  const auto* s4 = reinterpret_cast<const uint4*>(src + head);
  auto* d4 = reinterpret_cast<uint4*>(dst + head);
  for (int k = lane; k < body; k += 32) copy16_async(d4 + k, s4 + k);
  for (int k = lane; k < head / 2; k += 32)
    reinterpret_cast<std::uint16_t*>(dst)[k] = __ldg(reinterpret_cast<const std::uint16_t*>(src) + k);
  for (int k = lane; k < (bytes - tail_at) / 2; k += 32)
    reinterpret_cast<std::uint16_t*>(dst + tail_at)[k] = __ldg(reinterpret_cast<const std::uint16_t*>(src + tail_at) + k);
}

// c ? a : b as one selp the compiler cannot turn into a load through a selected address (which
// would keep the sums of warp_sum_transposed in local memory instead of registers).
__device__ __forceinline__ float pick(bool c, float a, float b) {
  float r;
  asm("{\n .reg .pred p;\n setp.ne.b32 p, %1, 0;\n selp.f32 %0, %2, %3, p;\n}" : "=f"(r) : "r"(static_cast<int>(c)), "f"(a), "f"(b));
  return r;
}

// One step of warp_sum_transposed: distance H, sums [0, 2H) in, [0, H) out (a compile-time H so
// that every index is a constant and the sums stay in registers).
template <int H>
__device__ __forceinline__ void transposed_step(float (&v)[32], int lane) {
  const bool upper = (lane & H) != 0;
#pragma unroll
  for (int i = 0; i < H; ++i) {
    const float low = v[i], high = v[H + i];
    const float keep = pick(upper, high, low);
    const float send = pick(upper, low, high);
    v[i] = keep + __shfl_xor_sync(0xffffffffu, send, H, 32);
  }
}

// The 32 sums of a lane (v[r*kPairBatch + j]: row r, pair j) reduced over the warp at once: at the
// step of distance h every lane keeps half of its sums (the half its lane bit h selects), adds its
// partner's copy of them and sends the other half, so lane l ends with sum l. Each sum is
// v(lane) + v(lane ^ h) at every step, the very additions of warp_sum_butterfly (which leaves the
// same value in every lane, float addition being commutative): bit-equal to it, in 31 shuffles
// instead of 32 x 5 (by_expert_plan_test models it on 32 simulated lanes).
__device__ __forceinline__ float warp_sum_transposed(float (&v)[32], int lane) {
  transposed_step<16>(v, lane);
  transposed_step<8>(v, lane);
  transposed_step<4>(v, lane);
  transposed_step<2>(v, lane);
  transposed_step<1>(v, lane);
  return v[0];
}

// Index: as gemv_tiled's (uint32 exactly when gemv_index_width proved every index fits, including
// the list entries, which are pair indices < pairs, and the tile rows).
template <QuantType T, class OutT, class Index>
__global__ void __launch_bounds__(kByExpertThreads, 4) gemv_by_expert(GemvArgs a, ExpertGroupArgs g) {
  static_assert(std::is_same_v<Index, std::uint32_t> || std::is_same_v<Index, std::uint64_t>);
  static_assert(kRowsPerWarp * kPairBatch == 32);
  constexpr int lanes = static_cast<int>(lanes_per_block(T));
  constexpr int step = static_cast<int>(blocks_per_warp(T));
  constexpr int block_bytes = static_cast<int>(quant_traits(T).block_bytes);
  constexpr int act_blocks_per_block = static_cast<int>(quant_traits(T).qk / 32);
  constexpr int chunk = static_cast<int>(by_expert_stage_chunk_blocks(T));
  static_assert(chunk >= step && chunk % step == 0 && chunk * block_bytes <= kStageBytes);
  __shared__ alignas(16) std::uint8_t stage[kWarps][kRowsPerWarp][kStageBytes + 16];
  static_assert(sizeof(stage) == kByExpertSmemBytes);

  const std::uint64_t slot = g.expert_slot_offset + blockIdx.y;
  if (slot >= *g.n_used) return;  // fewer experts used than slots: the block does nothing
  const int warp = static_cast<int>(threadIdx.x / 32), lane = static_cast<int>(threadIdx.x % 32);
  const Index nrows = static_cast<Index>(a.nrows);
  // The tile row (the plan's tile_row): below rows rounded up to kByExpertRowsPerBlock.
  const Index row0 = static_cast<Index>(a.row_offset) + static_cast<Index>(blockIdx.x) * static_cast<Index>(kByExpertRowsPerBlock) +
                     static_cast<Index>(warp * kRowsPerWarp);
  if (row0 >= nrows) return;  // the whole warp (only __syncwarp below: the other warps go on)
  const Index expert = static_cast<Index>(g.used[slot]);
  const int blocks_per_row = static_cast<int>(a.blocks_per_row);
  // Rows past the last are read as the last one (computed, never stored): no branch per row.
  const std::uint8_t* w[kRowsPerWarp];
#pragma unroll
  for (int r = 0; r < kRowsPerWarp; ++r) {
    const Index row = row0 + static_cast<Index>(r) < nrows ? row0 + static_cast<Index>(r) : nrows - 1;
    const Index row_block = (expert * nrows + row) * static_cast<Index>(a.blocks_per_row);
    w[r] = a.weights + static_cast<std::uint64_t>(row_block) * block_bytes;
  }
  const auto stage_chunk = [&](int c0) {
    const int n_blocks = blocks_per_row - c0 < chunk ? blocks_per_row - c0 : chunk;
#pragma unroll
    for (int r = 0; r < kRowsPerWarp; ++r) stage_row_chunk(w[r] + c0 * block_bytes, n_blocks * block_bytes, stage[warp][r], lane);
  };
  int staged = -1;  // first block of the chunk in this warp's stage
  // With one slice (up to kByExpertPairsPerSlice pairs: decode) every used expert has pairs for
  // this block, so its rows' first chunk is on its way while the pair list is read.
  if (gridDim.z == 1) {
    stage_chunk(0);
    staged = 0;
  }
  // This block's slice of the expert's pairs: gridDim.z equal slices (launch_geometry.hpp).
  const std::uint64_t first = g.offsets[expert];
  const PairSlice mine = pair_slice(g.offsets[expert + 1] - first, gridDim.z, blockIdx.z);
  if (mine.lo >= mine.hi) {
    copies_arrived();  // none left in flight into a stage nobody reads
    return;  // the whole block: an expert with fewer pairs than slices
  }
  const std::uint64_t begin = first + mine.lo, end = first + mine.hi;
  const Index* list = static_cast<const Index*>(g.list);
  for (std::uint64_t b = begin; b < end; b += kPairBatch) {
    const int n = end - b < kPairBatch ? static_cast<int>(end - b) : kPairBatch;
    const block_q8_1* x[kPairBatch];
#pragma unroll
    for (int j = 0; j < kPairBatch; ++j) {
      const Index token = token_of(list[b + (j < n ? j : 0)], a);
      x[j] = reinterpret_cast<const block_q8_1*>(a.act + static_cast<std::uint64_t>(token * static_cast<Index>(a.token_stride)));
    }
    float sum[kRowsPerWarp * kPairBatch];
#pragma unroll
    for (int m = 0; m < kRowsPerWarp * kPairBatch; ++m) sum[m] = 0.0f;
    for (int c0 = 0; c0 < blocks_per_row; c0 += chunk) {
      const int c1 = blocks_per_row - c0 < chunk ? blocks_per_row : c0 + chunk;
      if (staged != c0) {
        __syncwarp();  // every lane is done reading the previous chunk
        stage_chunk(c0);
        staged = c0;
      }
      copies_arrived();
      __syncwarp();  // the chunk's bytes, staged by every lane, visible to every lane
      const std::uint8_t* sw[kRowsPerWarp];  // block c0 of each row, at its source's offset mod 16
#pragma unroll
      for (int r = 0; r < kRowsPerWarp; ++r)
        sw[r] = stage[warp][r] + (reinterpret_cast<std::uintptr_t>(w[r] + c0 * block_bytes) & 15u);
      for (int i = c0 + lane / lanes; i < c1; i += step) {
        // Pair 0 always exists, so its weight loads dominate the other pairs' and serve them.
#pragma unroll
        for (int j = 0; j < kPairBatch; ++j) {
          if (j == 0 || j < n) {  // pair 0 always: n >= 1
            const block_q8_1* xj = x[j] + i * act_blocks_per_block;
#pragma unroll
            for (int r = 0; r < kRowsPerWarp; ++r)
              sum[r * kPairBatch + j] += block_dot<T>(sw[r] + (i - c0) * block_bytes, xj, lane % lanes);
          }
        }
      }
    }
    // Lane l holds the sum of row l / kPairBatch, pair l % kPairBatch.
    const float v = warp_sum_transposed(sum, lane);
    const int r = lane / kPairBatch, j = lane % kPairBatch;
    const Index row = row0 + static_cast<Index>(r);
    // The pair from the list again (an L1 hit), not p[j]: a lane-dependent index would put p in local memory.
    if (j < n && row < nrows) store_out(static_cast<OutT*>(a.dst), static_cast<std::uint64_t>(list[b + j] * nrows + row), v);
  }
  copies_arrived();  // a warp never leaves with copies into its stage in flight
}

}  // namespace gridfuzz::gguf::device_code
