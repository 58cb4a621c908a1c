#pragma once
// qmm (the sm80 path): tensor-core matmul of fp16/bf16 activations with 4- or 8-bit affine
// weights. CTA tile (TILE_M, 128, TILE_K), 128 threads = 4 warps side by side along N (each warp
// owns all TILE_M rows and 32 columns, so every weight is dequantized exactly once per CTA), a
// 3-stage cp.async pipeline holding activations and PACKED weights in shared memory, and
// dequantization straight into the MMA's B registers: w = scale*q + bias in float, rounded to
// the activation type. Grid (ceil(m/TILE_M), n/128, l); blockIdx.z is the batch slice, whose
// activation batch is lhs[z] (or z) and whose weight matrix is rhs[z] (or the only one).
//
// Every output element is computed by one thread with a fixed K order and no split-K, so the
// result of an element does not depend on the grid or on which other rows share its tile.
#include <cstdint>

#include "element_types.cuh"
#include "index_math.cuh"
#include "kernel_args.hpp"
#include "mma_primitives.cuh"

namespace gridfuzz::affine {

inline constexpr int kQmmStagesDevice = 3;
inline constexpr int kQmmTileNDevice = 128;

// float(q) for q < 2^23 without I2F (a quarter-rate conversion on sm_90 that bounded the first
// version at ~190 TFLOP/s): q in the mantissa of 2^23, minus 2^23. Exact, so the numerics do not change.
__device__ __forceinline__ float small_uint_to_float(std::uint32_t q) {
  return __uint_as_float(0x4B000000u | q) - 8388608.0f;
}

template <class T, int BITS, int TILE_M, int TILE_K, class Index>
__global__ void __launch_bounds__(128) qmm_kernel(MatmulArgs a) {
  static_assert(BITS == 4 || BITS == 8, "qmm takes 4- and 8-bit weights");
  static_assert(TILE_M % 16 == 0 && TILE_M <= 64 && (TILE_K == 64 || TILE_K == 128), "tile");
  using I = typename Index::type;
  using E = Element<T>;
  constexpr int kStages = kQmmStagesDevice;
  constexpr int kTileN = kQmmTileNDevice;
  constexpr int kChunksA = TILE_K / 8;            // 16-byte chunks in one activation row of a tile
  constexpr int kRowBytesB = TILE_K * BITS / 8;   // packed bytes of one weight row of a tile
  constexpr int kChunksB = kRowBytesB / 16;
  constexpr int kMAtoms = TILE_M / 16;
  constexpr int kNAtoms = 4;                      // 4 x n8 = the warp's 32 columns
  constexpr int kWordsPerTile = TILE_K * BITS / 32;

  extern __shared__ uint4 smem[];
  T* s_a = reinterpret_cast<T*>(smem);                                             // [stage][TILE_M][TILE_K], swizzled
  std::uint8_t* s_b = reinterpret_cast<std::uint8_t*>(s_a + kStages * TILE_M * TILE_K);  // [stage][128][kRowBytesB]

  const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
  const I m = Index::of(a.m), n = Index::of(a.n), k = Index::of(a.k);
  const I words_per_row = Index::of(a.k * BITS / 32);
  const I groups_per_row = Index::of(a.k / a.group_size);
  const std::uint32_t slice = blockIdx.z;
  const I a_batch = Index::of(a.lhs ? a.lhs[slice] : slice);
  const I b_batch = Index::of(a.rhs ? a.rhs[slice] : 0u);
  const I row0 = Index::of(static_cast<std::int64_t>(blockIdx.x) * TILE_M);
  const I col0 = Index::of(static_cast<std::int64_t>(blockIdx.y) * kTileN);
  // Batch strides m*k, n*row_words, n*groups, m*n: int in the legacy kernel (upstream's int strides).
  const I a_base = Index::mul(a_batch, Index::mul(m, k));
  const I b_base = Index::mul(b_batch, Index::mul(n, words_per_row));
  const I s_base = Index::mul(b_batch, Index::mul(n, groups_per_row));
  const I c_base = Index::mul(Index::of(slice), Index::mul(m, n));
  const T* x = reinterpret_cast<const T*>(a.x);
  const int k_tiles = static_cast<int>(a.k / TILE_K);
  const bool two_groups_per_tile = TILE_K / a.group_size == 2;  // group 32 in a 64-wide tile

  auto load_tile = [&](int stage, int kt) {
    T* sa = s_a + stage * TILE_M * TILE_K;
    #pragma unroll
    for (int i = tid; i < TILE_M * kChunksA; i += 128) {
      const int r = i / kChunksA, c = i % kChunksA;
      const I row = Index::add(row0, Index::of(r));
      const bool valid = row < m;  // rows past m are zero-filled, never read
      const I off = Index::add(a_base, Index::add(Index::mul(row, k), Index::of(kt * TILE_K + c * 8)));
      const T* src = valid ? x + static_cast<std::int64_t>(off) : x;
      cp_async_16(sa + r * TILE_K + ((c ^ (r & 7)) * 8), src, valid);
    }
    std::uint8_t* sb = s_b + stage * kTileN * kRowBytesB;
    #pragma unroll
    for (int i = tid; i < kTileN * kChunksB; i += 128) {
      const int r = i / kChunksB, c = i % kChunksB;
      const I wrow = Index::add(col0, Index::of(r));
      const I off = Index::add(b_base, Index::add(Index::mul(wrow, words_per_row), Index::of(kt * kWordsPerTile + c * 4)));
      cp_async_16(sb + r * kRowBytesB + c * 16, a.w + static_cast<std::int64_t>(off), true);
    }
  };

  float acc[kMAtoms][kNAtoms][4];
  #pragma unroll
  for (int mi = 0; mi < kMAtoms; ++mi)
    #pragma unroll
    for (int ni = 0; ni < kNAtoms; ++ni)
      #pragma unroll
      for (int e = 0; e < 4; ++e) acc[mi][ni][e] = 0.f;

  #pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < k_tiles) load_tile(s, s);
    cp_async_commit();
  }

  const int t = lane & 3;        // k pair inside an MMA step
  const int my_col = lane >> 2;  // column inside an n8 atom
  for (int kt = 0; kt < k_tiles; ++kt) {
    // Scales and biases of this tile's group(s) for the thread's 4 columns, fetched before the
    // wait so that their latency overlaps it. (Prefetching them a whole tile ahead was measured
    // slower: 160 vs 181 TFLOP/s, more registers per thread.)
    float scale[kNAtoms][2], bias[kNAtoms][2];
    #pragma unroll
    for (int ni = 0; ni < kNAtoms; ++ni) {
      const I wrow = Index::add(col0, Index::of(warp * 32 + ni * 8 + my_col));
      #pragma unroll
      for (int gi = 0; gi < 2; ++gi) {
        const std::int64_t group = (static_cast<std::int64_t>(kt) * TILE_K) / a.group_size + (two_groups_per_tile ? gi : 0);
        const I off = Index::add(s_base, Index::add(Index::mul(wrow, groups_per_row), Index::of(group)));
        scale[ni][gi] = E::to_float(load_element<T>(a.scales + static_cast<std::int64_t>(off)));
        bias[ni][gi] = E::to_float(load_element<T>(a.biases + static_cast<std::int64_t>(off)));
      }
    }
    cp_async_wait<kStages - 2>();
    __syncthreads();  // tile kt is visible; every warp is done with the stage refilled below
    const int prefetch = kt + kStages - 1;
    if (prefetch < k_tiles) load_tile(prefetch % kStages, prefetch);
    cp_async_commit();

    const T* sa = s_a + (kt % kStages) * TILE_M * TILE_K;
    const std::uint8_t* sb = s_b + (kt % kStages) * kTileN * kRowBytesB;
    #pragma unroll
    for (int kk = 0; kk < TILE_K / 16; ++kk) {
      std::uint32_t a_frag[kMAtoms][4];
      #pragma unroll
      for (int mi = 0; mi < kMAtoms; ++mi) {
        const int r = mi * 16 + (lane & 15);
        const int chunk = (kk * 2 + (lane >> 4)) ^ (r & 7);
        ldmatrix_x4(a_frag[mi], sa + r * TILE_K + chunk * 8);
      }
      const int gi = (two_groups_per_tile && kk * 16 >= 32) ? 1 : 0;
      #pragma unroll
      for (int ni = 0; ni < kNAtoms; ++ni) {
        const std::uint8_t* brow = sb + (warp * 32 + ni * 8 + my_col) * kRowBytesB;
        std::uint32_t q0, q1, q2, q3;  // k = 2t, 2t+1, 2t+8, 2t+9 of this 16-step
        if constexpr (BITS == 4) {
          const uint2 v = *reinterpret_cast<const uint2*>(brow + kk * 8);
          const std::uint32_t lo = (v.x >> (8 * t)) & 0xffu, hi = (v.y >> (8 * t)) & 0xffu;
          q0 = lo & 15u; q1 = lo >> 4; q2 = hi & 15u; q3 = hi >> 4;
        } else {
          const uint4 v = *reinterpret_cast<const uint4*>(brow + kk * 16);
          const std::uint32_t p01 = ((t >> 1) ? v.y : v.x) >> (16 * (t & 1));
          const std::uint32_t p89 = ((t >> 1) ? v.w : v.z) >> (16 * (t & 1));
          q0 = p01 & 0xffu; q1 = (p01 >> 8) & 0xffu; q2 = p89 & 0xffu; q3 = (p89 >> 8) & 0xffu;
        }
        // Select, not index: a runtime index would put the arrays in local memory.
        const float s = gi ? scale[ni][1] : scale[ni][0];
        const float b = gi ? bias[ni][1] : bias[ni][0];
        const std::uint32_t b0 = E::pack2(fmaf(small_uint_to_float(q0), s, b), fmaf(small_uint_to_float(q1), s, b));
        const std::uint32_t b1 = E::pack2(fmaf(small_uint_to_float(q2), s, b), fmaf(small_uint_to_float(q3), s, b));
        #pragma unroll
        for (int mi = 0; mi < kMAtoms; ++mi) Mma<T>::run(acc[mi][ni], a_frag[mi], b0, b1);
      }
    }
  }
  cp_async_wait<0>();

  // Epilogue straight from the accumulators: c0,c1 are row lane/4, columns 2t, 2t+1; c2,c3 the row 8 below.
  std::uint16_t* out = a.out;
  #pragma unroll
  for (int mi = 0; mi < kMAtoms; ++mi)
    #pragma unroll
    for (int ni = 0; ni < kNAtoms; ++ni)
      #pragma unroll
      for (int half = 0; half < 2; ++half) {
        const I row = Index::add(row0, Index::of(mi * 16 + my_col + half * 8));
        if (!(row < m)) continue;
        const I col = Index::add(col0, Index::of(warp * 32 + ni * 8 + 2 * t));
        const I off = Index::add(c_base, Index::add(Index::mul(row, n), col));
        *reinterpret_cast<std::uint32_t*>(out + static_cast<std::int64_t>(off)) =
            E::pack2(acc[mi][ni][2 * half], acc[mi][ni][2 * half + 1]);
      }
}

}  // namespace gridfuzz::affine
