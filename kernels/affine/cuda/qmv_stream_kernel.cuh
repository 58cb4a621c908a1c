#pragma once
// qmv_stream: the M < 8 path of affine.qmm's "hopper" variant (4-bit weights, dense calls). A
// geometry of ours, not MLX's (docs/DECISIONS.md, "qmv_stream"): block (32, 8), grid
// (min(ceil(n/8), sm_count * kQmvStreamBlocksPerSm), m); token row y on grid.y as in MLX's qmv.
//
// The block stages its token's whole activation row in dynamic shared memory once (the layout of
// qmv_kernel.cuh's staged tiles, tile after tile: 9216 bytes per 4096 elements), then each warp
// walks the weight rows blockIdx.x*8 + warp, + gridDim.x*8, ... one (row, 4096-element tile) item
// at a time, and issues the next item's weight loads (four 16-byte segments per lane, their scales
// and biases) before it computes the current one: the loads of a warp overlap its own compute,
// and the activation row is read from L2 once per block instead of once per 8 rows.
//
// Per item the arithmetic is qmv_kernel.cuh's 4-bit staged path in the same order (chunk sums in
// the activation type, folded in float as scale*sum(x*q) + bias*sum(x); the warp reduces in
// float), so each output element is computed as the fixed variant's qmv computes it.
#include <cstdint>

#include "element_types.cuh"
#include "index_math.cuh"
#include "kernel_args.hpp"

namespace gridfuzz::affine {

inline constexpr int kQmvStreamWarps = 8;
inline constexpr int kQmvStreamTile = 4096;        // elements per item: 4 segments x 32 lanes x 32
inline constexpr int kQmvStreamTileBytes = 9216;   // staged per tile: 512 uint4 pairs + 256 float sums

// One lane's part of one item: four 16-byte segments of nibbles and their groups' scale and bias.
template <class T>
struct QmvStreamItem {
  uint4 packed[4];
  T scale[4], bias[4];
};

// One lane's loads for one item. w_lane: its first 16 bytes in the item (segment s 32 uint4 =
// 1024 elements further); s_lane, b_lane: the group of its first element (segment s seg_groups
// further); k0_lane: the element index of its first element. FULL: the item is a whole tile
// (k a multiple of 4096), so no segment needs a bound check.
template <class T, bool FULL>
__device__ __forceinline__ void qmv_stream_load(QmvStreamItem<T>& it, const uint4* w_lane, const std::uint16_t* s_lane,
                                                const std::uint16_t* b_lane, int seg_groups, std::int64_t k0_lane,
                                                std::int64_t k) {
  #pragma unroll
  for (int s = 0; s < 4; ++s) {
    if (FULL || k0_lane + s * 1024 < k) {
      it.packed[s] = w_lane[32 * s];
      it.scale[s] = load_element<T>(s_lane + s * seg_groups);
      it.bias[s] = load_element<T>(b_lane + s * seg_groups);
    } else {
      it.packed[s] = make_uint4(0, 0, 0, 0);
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
__device__ __forceinline__ void qmv_stream_compute(const QmvStreamItem<T>& it, const uint4* pairs_s,
                                                   const float* sums_s, std::int64_t k0_lane, std::int64_t k, int lane,
                                                   float& acc) {
  using E = Element<T>;
  using P = typename E::Pair;
  const P magic = E::magic_pair();
  #pragma unroll
  for (int s = 0; s < 4; ++s) {
    if (!FULL && k0_lane + s * 1024 >= k) break;
    const std::uint32_t words[4] = {it.packed[s].x, it.packed[s].y, it.packed[s].z, it.packed[s].w};
    const float scale = E::to_float(it.scale[s]), bias = E::to_float(it.bias[s]);
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
      acc += scale * (__low2float(xq) + __high2float(xq)) + bias * sums_s[(s * 2 + c) * 32 + lane];
    }
  }
}

// Stages x[0, k) of one token: chunk i (elements 16i..16i+15) of tile i/256 is staging thread
// t = i%256 of qmv_kernel.cuh's layout (segment t/64, owner lane (t%64)/2, chunk t%2).
template <class T>
__device__ __forceinline__ void qmv_stream_stage(const T* x, std::int64_t k, uint4* pairs_s, float* sums_s) {
  using E = Element<T>;
  using P = typename E::Pair;
  for (std::int64_t i = threadIdx.y * 32 + threadIdx.x; i < k / 16; i += 32 * kQmvStreamWarps) {
    const std::int64_t tile = i / 256;
    const int t = static_cast<int>(i % 256);
    uint4* pairs = pairs_s + tile * 512;
    float* sums = sums_s + tile * 256;
    const std::int64_t e0 = 16 * i;
    const uint4 lo = *reinterpret_cast<const uint4*>(x + e0), hi = *reinterpret_cast<const uint4*>(x + e0 + 8);
    const int seg = t / 64, owner = (t % 64) / 2, chunk = t % 2;
    pairs[(seg * 4 + 2 * chunk) * 32 + owner] =
        make_uint4(__byte_perm(lo.x, lo.z, 0x5410), __byte_perm(lo.x, lo.z, 0x7632), __byte_perm(lo.y, lo.w, 0x5410),
                   __byte_perm(lo.y, lo.w, 0x7632));
    pairs[(seg * 4 + 2 * chunk + 1) * 32 + owner] =
        make_uint4(__byte_perm(hi.x, hi.z, 0x5410), __byte_perm(hi.x, hi.z, 0x7632), __byte_perm(hi.y, hi.w, 0x5410),
                   __byte_perm(hi.y, hi.w, 0x7632));
    float sum = 0.f;
    for (const std::uint32_t v : {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w})
      sum += __low2float(as_pair<P>(v)) + __high2float(as_pair<P>(v));
    sums[(seg * 2 + chunk) * 32 + owner] = sum;
  }
}

// The warp's loop over its items (row, tile): the next item's loads are issued before the current
// item is computed. Two named buffers that swap roles each step (no register copies).
template <class T, class Index, bool FULL>
__device__ __forceinline__ void qmv_stream_rows(const MatmulArgs& a, const uint4* pairs_s, const float* sums_s,
                                                typename Index::type y, std::int64_t row) {
  using E = Element<T>;
  using I = typename Index::type;
  const int lane = threadIdx.x;
  const std::int64_t tiles = (a.k + kQmvStreamTile - 1) / kQmvStreamTile;
  const std::int64_t row_step = static_cast<std::int64_t>(gridDim.x) * kQmvStreamWarps;
  const int group_shift = __ffs(static_cast<int>(a.group_size)) - 1;  // 32, 64 or 128
  const int seg_groups = 1024 >> group_shift;
  const std::int64_t words_per_row = a.k / 8, groups_per_row = a.k >> group_shift;
  const I n = Index::of(a.n);
  T* out = reinterpret_cast<T*>(a.out);
  // Weight and scale offsets in int64, as qmv_kernel.cuh forms them.
  auto load = [&](QmvStreamItem<T>& it, std::int64_t r, std::int64_t tile) {
    const std::int64_t k0 = tile * kQmvStreamTile + lane * 32;
    const std::int64_t g0 = r * groups_per_row + (k0 >> group_shift);
    qmv_stream_load<T, FULL>(it, reinterpret_cast<const uint4*>(a.w + r * words_per_row + k0 / 8), a.scales + g0,
                             a.biases + g0, seg_groups, k0, a.k);
  };
  std::int64_t tile = 0;
  float acc = 0.f;
  auto step = [&](const QmvStreamItem<T>& cur, QmvStreamItem<T>& next) {
    std::int64_t next_row = row, next_tile = tile + 1;
    if (next_tile == tiles) {
      next_tile = 0;
      next_row = row + row_step;
    }
    const bool more = next_row < a.n;
    if (more) load(next, next_row, next_tile);
    qmv_stream_compute<T, FULL>(cur, pairs_s + tile * 512, sums_s + tile * 256, tile * kQmvStreamTile + lane * 32,
                                a.k, lane, acc);
    if (tile == tiles - 1) {
      #pragma unroll
      for (int offset = 16; offset > 0; offset /= 2) acc += __shfl_xor_sync(0xffffffffu, acc, offset);
      if (lane == 0) out[static_cast<std::int64_t>(Index::add(Index::mul(y, n), Index::of(row)))] = E::from_float(acc);
      acc = 0.f;
    }
    row = next_row;
    tile = next_tile;
    return more;
  };
  QmvStreamItem<T> first, second;
  load(first, row, 0);
  while (step(first, second) && step(second, first)) {
  }
}

template <class T, class Index>
__global__ void __launch_bounds__(32 * kQmvStreamWarps, 3) qmv_stream_kernel(MatmulArgs a) {
  extern __shared__ uint4 qmv_stream_smem[];
  const std::int64_t tiles = (a.k + kQmvStreamTile - 1) / kQmvStreamTile;
  uint4* pairs_s = qmv_stream_smem;                                         // [tiles][512]
  float* sums_s = reinterpret_cast<float*>(qmv_stream_smem + tiles * 512);  // [tiles][256]

  // Upstream's dense qmv offsets (slice 0): x += y*k; out += y*n + col, in the index type.
  using I = typename Index::type;
  const I k = Index::of(a.k), y = Index::of(blockIdx.y);
  const T* x = reinterpret_cast<const T*>(a.x) + static_cast<std::int64_t>(Index::mul(y, k));
  qmv_stream_stage<T>(x, a.k, pairs_s, sums_s);
  __syncthreads();

  const std::int64_t row = static_cast<std::int64_t>(blockIdx.x) * kQmvStreamWarps + threadIdx.y;
  if (row >= a.n) return;
  if (a.k % kQmvStreamTile == 0) qmv_stream_rows<T, Index, true>(a, pairs_s, sums_s, y, row);
  else qmv_stream_rows<T, Index, false>(a, pairs_s, sums_s, y, row);
}

}  // namespace gridfuzz::affine
