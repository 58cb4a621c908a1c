#pragma once
// qmv_stream: the M < 8 path of affine.qmm's "hopper" variant (4-bit weights, dense calls). A
// geometry of ours, not MLX's (docs/DECISIONS.md, "qmv_stream"): block (32, 8), grid
// (min(ceil(n/8), sm_count * kQmvStreamBlocksPerSm), m); token row y on grid.y as in MLX's qmv.
//
// The block stages its token's whole activation row in dynamic shared memory once (permuted into
// the pairs the nibbles meet, and one float sum per lane's 32 elements: 8704 bytes per 4096
// elements), then each warp
// walks the weight rows blockIdx.x*8 + warp, + gridDim.x*8, ... one (row, 4096-element tile) item
// at a time. An item's weights (four 16-byte segments per lane) are copied by cp.async into a ring
// of kQmvStreamStages slots of the warp's own shared memory, kQmvStreamStages - 1 items ahead of
// the one being computed, and their scales and biases into a ring of registers as far ahead:
// the bytes a warp has in flight are not bounded by its registers (evidence/performance-log.md, run 16).
// Each lane copies and later reads only its own 16-byte slots, so its own cp.async.wait_group
// is the only wait it needs.
//
// Per item the arithmetic is that of qmv_kernel.cuh's 4-bit staged path (16-element chunk sums of
// x*q in the activation type), but folded once per 32-element segment, which lies in one group:
// scale*(chunk + chunk) + bias*sum(x) in float; the warp reduces in float. The fixed variant folds
// each chunk, so the two agree within float rounding, not bit for bit.
#include <cstdint>

#include "element_types.cuh"
#include "index_math.cuh"
#include "kernel_args.hpp"

namespace gridfuzz::affine {

inline constexpr int kQmvStreamWarps = 8;
inline constexpr int kQmvStreamTile = 4096;        // elements per item: 4 segments x 32 lanes x 32
inline constexpr int kQmvStreamTileBytes = 8704;   // staged per tile: 512 uint4 pairs + 128 float segment sums
inline constexpr int kQmvStreamStages = 3;         // ring slots per warp, one item each
inline constexpr int kQmvStreamStageBytes = 2048;  // one item's weights: 32 lanes x 4 segments x 16 bytes

// One lane's scales and biases of one item's four segments (the weights travel through shared memory).
template <class T>
struct QmvStreamGroups {
  T scale[4], bias[4];
};

__device__ __forceinline__ void qmv_stream_cp_async16(uint4* dst_smem, const uint4* src) {
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(dst_smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory");
}
__device__ __forceinline__ void qmv_stream_cp_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int PENDING>
__device__ __forceinline__ void qmv_stream_cp_async_wait() {
  asm volatile("cp.async.wait_group %0;" ::"n"(PENDING) : "memory");
}

// Issues one lane's part of one item: its four weight segments by cp.async into its slots of a
// ring stage (segment s at slot_lane[32 * s]), its scales and biases into registers. w_lane: its
// first 16 bytes in the item (segment s 32 uint4 = 1024 elements further); s_lane, b_lane: the
// group of its first element (segment s seg_groups further); k0_lane: the element index of its
// first element. FULL: the item is a whole tile (k a multiple of 4096), no bound checks.
template <class T, bool FULL>
__device__ __forceinline__ void qmv_stream_issue(uint4* slot_lane, QmvStreamGroups<T>& g, const uint4* w_lane,
                                                 const std::uint16_t* s_lane, const std::uint16_t* b_lane,
                                                 int seg_groups, std::int64_t k0_lane, std::int64_t k) {
  #pragma unroll
  for (int s = 0; s < 4; ++s) {
    if (FULL || k0_lane + s * 1024 < k) {
      qmv_stream_cp_async16(slot_lane + 32 * s, w_lane + 32 * s);
      g.scale[s] = load_element<T>(s_lane + s * seg_groups);
      g.bias[s] = load_element<T>(b_lane + s * seg_groups);
    }
  }
}

// (a & mask) | magic in one LOP3: written as C++ the compiler emits an AND and an OR, because a
// SASS LOP3 takes one immediate; here both constants sit in registers (set once per thread).
__device__ __forceinline__ std::uint32_t qmv_stream_and_or(std::uint32_t a, std::uint32_t mask, std::uint32_t magic) {
  std::uint32_t d;
  asm("lop3.b32 %0, %1, %2, %3, 0xEA;" : "=r"(d) : "r"(a), "r"(mask), "r"(magic));
  return d;
}

template <class T, bool FULL>
__device__ __forceinline__ void qmv_stream_compute(const uint4 (&packed)[4], const QmvStreamGroups<T>& g,
                                                   const uint4* pairs_s, const float* sums_s, std::int64_t k0_lane,
                                                   std::int64_t k, int lane, float& acc) {
  using E = Element<T>;
  using P = typename E::Pair;
  const P magic = E::magic_pair();
  #pragma unroll
  for (int s = 0; s < 4; ++s) {
    if (!FULL && k0_lane + s * 1024 >= k) break;
    const std::uint32_t words[4] = {packed[s].x, packed[s].y, packed[s].z, packed[s].w};
    float xq_segment = 0.f;  // sum(x*q) over the segment's 32 elements: two 16-element chunks
    #pragma unroll
    for (int c = 0; c < 2; ++c) {
      P xq = as_pair<P>(0u);
      #pragma unroll
      for (int g = 0; g < 2; ++g) {
        const uint4 xp = pairs_s[(s * 4 + 2 * c + g) * 32 + lane];
        const std::uint32_t xpairs[4] = {xp.x, xp.y, xp.z, xp.w};
        #pragma unroll
        for (int j = 0; j < 4; ++j) {
          const P q = __hsub2(as_pair<P>(qmv_stream_and_or(words[2 * c + g] >> (4 * j), 0x000F000Fu, E::kMagicPair)),
                              magic);
          xq = __hfma2(as_pair<P>(xpairs[j]), q, xq);
        }
      }
      xq_segment += __low2float(xq) + __high2float(xq);
    }
    // One group per segment (32 elements, groups of 32-128): scale*sum(x*q) + bias*sum(x).
    acc = fmaf(E::to_float(g.scale[s]), xq_segment, acc);
    acc = fmaf(E::to_float(g.bias[s]), sums_s[s * 32 + lane], acc);
  }
}

// Stages x[0, k) of one token. Unit i (elements 32i..32i+31) is segment (i%128)/32 of tile i/128
// for lane i%32: its two 16-element chunks as permuted pairs (chunk c's first and second 8 at
// (seg*4 + 2c + 0/1)*32 + lane) and one float sum of its 32 elements at seg*32 + lane.
template <class T>
__device__ __forceinline__ void qmv_stream_stage(const T* x, std::int64_t k, uint4* pairs_s, float* sums_s) {
  using E = Element<T>;
  using P = typename E::Pair;
  for (std::int64_t i = threadIdx.y * 32 + threadIdx.x; i < k / 32; i += 32 * kQmvStreamWarps) {
    const std::int64_t tile = i / 128;
    const int t = static_cast<int>(i % 128);
    const int seg = t / 32, lane = t % 32;
    uint4* pairs = pairs_s + tile * 512;
    float sum = 0.f;
    #pragma unroll
    for (int c = 0; c < 2; ++c) {
      const std::int64_t e0 = 32 * i + 16 * c;
      const uint4 lo = *reinterpret_cast<const uint4*>(x + e0), hi = *reinterpret_cast<const uint4*>(x + e0 + 8);
      pairs[(seg * 4 + 2 * c) * 32 + lane] = nibble_pairs(lo);
      pairs[(seg * 4 + 2 * c + 1) * 32 + lane] = nibble_pairs(hi);
      for (const std::uint32_t v : {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w})
        sum += __low2float(as_pair<P>(v)) + __high2float(as_pair<P>(v));
    }
    sums_s[tile * 128 + seg * 32 + lane] = sum;
  }
}

// The warp's loop over its items (row, tile). Item i's weights sit in ring stage i % kQmvStreamStages
// and its scales in groups[i % kQmvStreamStages]; while item i is computed, items i+1 ..
// i+kQmvStreamStages-1 are in flight. One cp.async group is committed per item issued (an empty
// one past the last row), so "item i has landed" is "at most kQmvStreamStages - 2 groups pending".
template <class T, class Index, bool FULL>
__device__ __forceinline__ void qmv_stream_rows(const MatmulArgs& a, const uint4* pairs_s, const float* sums_s,
                                                uint4* ring, typename Index::type y, std::int64_t first_row) {
  using E = Element<T>;
  using I = typename Index::type;
  constexpr int S = kQmvStreamStages;
  const int lane = threadIdx.x;
  const std::int64_t tiles = (a.k + kQmvStreamTile - 1) / kQmvStreamTile;
  const std::int64_t row_step = static_cast<std::int64_t>(gridDim.x) * kQmvStreamWarps;
  const int group_shift = __ffs(static_cast<int>(a.group_size)) - 1;  // 32, 64 or 128
  const int seg_groups = 1024 >> group_shift;
  const std::int64_t words_per_row = a.k / 8, groups_per_row = a.k >> group_shift;
  const I n = Index::of(a.n);
  T* out = reinterpret_cast<T*>(a.out);
  uint4* ring_lane = ring + lane;  // stage j, segment s: ring_lane[j * 128 + 32 * s]

  struct Cursor {
    std::int64_t row, tile;
  };
  auto next = [&](Cursor c) {
    if (++c.tile == tiles) {
      c.tile = 0;
      c.row += row_step;
    }
    return c;
  };
  // Weight and scale offsets in int64, as qmv_kernel.cuh forms them.
  auto issue = [&](Cursor c, int stage, QmvStreamGroups<T>& g) {
    if (c.row < a.n) {
      const std::int64_t k0 = c.tile * kQmvStreamTile + lane * 32;
      const std::int64_t g0 = c.row * groups_per_row + (k0 >> group_shift);
      const auto* w_lane = reinterpret_cast<const uint4*>(a.w + c.row * words_per_row + k0 / 8);
      qmv_stream_issue<T, FULL>(ring_lane + stage * 128, g, w_lane, a.scales + g0, a.biases + g0, seg_groups, k0, a.k);
    }
    qmv_stream_cp_async_commit();
  };

  QmvStreamGroups<T> groups[S];
  Cursor ahead{first_row, 0}, cur{first_row, 0};
  #pragma unroll
  for (int j = 0; j < S - 1; ++j) {
    issue(ahead, j, groups[j]);
    ahead = next(ahead);
  }
  float acc = 0.f;
  while (true) {
    #pragma unroll
    for (int j = 0; j < S; ++j) {
      if (cur.row >= a.n) return;
      const std::int64_t k0_lane = cur.tile * kQmvStreamTile + lane * 32;
      qmv_stream_cp_async_wait<S - 2>();
      uint4 packed[4];
      #pragma unroll
      for (int s = 0; s < 4; ++s)
        packed[s] = (FULL || k0_lane + s * 1024 < a.k) ? ring_lane[j * 128 + 32 * s] : make_uint4(0, 0, 0, 0);
      // Into the stage and groups item i-1 used (already read into registers and computed).
      issue(ahead, (j + S - 1) % S, groups[(j + S - 1) % S]);
      ahead = next(ahead);
      qmv_stream_compute<T, FULL>(packed, groups[j], pairs_s + cur.tile * 512, sums_s + cur.tile * 128, k0_lane, a.k,
                                  lane, acc);
      if (cur.tile == tiles - 1) {
        #pragma unroll
        for (int offset = 16; offset > 0; offset /= 2) acc += __shfl_xor_sync(0xffffffffu, acc, offset);
        if (lane == 0)
          out[static_cast<std::int64_t>(Index::add(Index::mul(y, n), Index::of(cur.row)))] = E::from_float(acc);
        acc = 0.f;
      }
      cur = next(cur);
    }
  }
}

template <class T, class Index>
__global__ void __launch_bounds__(32 * kQmvStreamWarps, 3) qmv_stream_kernel(MatmulArgs a) {
  extern __shared__ uint4 qmv_stream_smem[];
  const std::int64_t tiles = (a.k + kQmvStreamTile - 1) / kQmvStreamTile;
  uint4* pairs_s = qmv_stream_smem;                                         // [tiles][512]
  float* sums_s = reinterpret_cast<float*>(qmv_stream_smem + tiles * 512);  // [tiles][128]
  uint4* ring = qmv_stream_smem + tiles * (kQmvStreamTileBytes / 16) +       // [warps][stages][128]
                threadIdx.y * (kQmvStreamStages * kQmvStreamStageBytes / 16);

  // Upstream's dense qmv offsets (slice 0): x += y*k; out += y*n + col, in the index type.
  using I = typename Index::type;
  const I k = Index::of(a.k), y = Index::of(blockIdx.y);
  const T* x = reinterpret_cast<const T*>(a.x) + static_cast<std::int64_t>(Index::mul(y, k));
  qmv_stream_stage<T>(x, a.k, pairs_s, sums_s);
  __syncthreads();

  const std::int64_t row = static_cast<std::int64_t>(blockIdx.x) * kQmvStreamWarps + threadIdx.y;
  if (row >= a.n) return;
  if (a.k % kQmvStreamTile == 0) qmv_stream_rows<T, Index, true>(a, pairs_s, sums_s, ring, y, row);
  else qmv_stream_rows<T, Index, false>(a, pairs_s, sums_s, ring, y, row);
}

}  // namespace gridfuzz::affine
