#pragma once
// qmv / gather_qmv: one warp per output column (weight row), block (32, 8) = 8 columns, grid
// (ceil(n/8), m, l): token row y on grid.y, batch slice on grid.z (docs/KERNELS.md, "MLX qmv").
//
// Each lane reads its weights 16 bytes at a time (a segment: 32 elements of 4 bits, 16 of 8), four
// segments and their groups' scales and biases in flight before any is used (the previous kernel,
// one 8-byte load per lane at a time, read at about a third of HBM's rate). Per chunk of 16
// elements (4-bit) the products accumulate in the activation type, per chunk of 8 (8-bit) in
// float (our reading of upstream's per-lane accumulator type); each chunk is folded in as
// scale*sum(x*q) + bias*sum(x) in float, and the warp reduces in float. K is a multiple of the
// group size (>= 32), so a segment, aligned to its own length, lies inside one group.
#include <cstdint>
#include <type_traits>

#include "element_types.cuh"
#include "gridfuzz/affine/formats.hpp"
#include "index_math.cuh"
#include "kernel_args.hpp"

namespace gridfuzz::affine {

inline constexpr int kQmvWarps = 8;

inline constexpr int kQmvSegsInFlight = 4;  // 16-byte weight loads per lane issued before any is used

// 8-bit weights: each lane reads its segment's activations itself. Per chunk of 8 elements the
// products and sums accumulate in float.
template <class T, int BITS>
__device__ __forceinline__ float qmv_row_direct(const MatmulArgs& a, const T* x, const std::uint32_t* w,
                                                const std::uint16_t* scales, const std::uint16_t* biases, int lane) {
  using E = Element<T>;
  constexpr int kElems = 8;
  constexpr int kSegElems = 128 / BITS;
  constexpr std::int64_t kWarpStep = 32 * kSegElems;
  float acc = 0.f;
  for (std::int64_t base = static_cast<std::int64_t>(lane) * kSegElems; base < a.k;
       base += kQmvSegsInFlight * kWarpStep) {
    uint4 packed[kQmvSegsInFlight] = {};
    T scale_bits[kQmvSegsInFlight] = {}, bias_bits[kQmvSegsInFlight] = {};
    #pragma unroll
    for (int s = 0; s < kQmvSegsInFlight; ++s) {
      const std::int64_t k0 = base + s * kWarpStep;
      if (k0 < a.k) {
        packed[s] = *reinterpret_cast<const uint4*>(w + k0 * BITS / 32);
        scale_bits[s] = load_element<T>(scales + k0 / a.group_size);
        bias_bits[s] = load_element<T>(biases + k0 / a.group_size);
      }
    }
    #pragma unroll
    for (int s = 0; s < kQmvSegsInFlight; ++s) {
      const std::int64_t k0 = base + s * kWarpStep;
      if (k0 >= a.k) break;
      const std::uint32_t words[4] = {packed[s].x, packed[s].y, packed[s].z, packed[s].w};
      const float scale = E::to_float(scale_bits[s]), bias = E::to_float(bias_bits[s]);
      #pragma unroll
      for (int c = 0; c < kSegElems / kElems; ++c) {
        T xs_vals[kElems];
        *reinterpret_cast<uint4*>(xs_vals) = *reinterpret_cast<const uint4*>(x + k0 + c * kElems);
        float xq = 0.f, xs = 0.f;
        #pragma unroll
        for (int i = 0; i < kElems; ++i) {
          const float q = static_cast<float>(unpack_element(words + 2 * c, static_cast<std::size_t>(i), BITS));
          xq = fmaf(E::to_float(xs_vals[i]), q, xq);
          xs += E::to_float(xs_vals[i]);
        }
        acc += scale * xq + bias * xs;
      }
    }
  }
  return acc;
}

// 4-bit weights. The block's 8 warps share one activation row, so the block stages it in shared
// memory a tile of 4096 elements at a time, already in the form every warp needs: pairs
// (x_j, x_{j+4}) of each 8 elements (nibbles j and j+4 of a weight word sit at bits 4j and 16+4j)
// and each 16-element chunk's sum in float. Laid out [segment][group][lane] so that a warp's 32
// lanes read 32 consecutive 16-byte words (no bank conflicts). Each warp issues its weight loads
// for the tile before the staging, so the staging hides behind them. Per chunk the products
// accumulate in the activation type, two lanes of a pair at a time; a nibble q becomes the value
// magic + q by the exponent trick and loses the magic in one pair subtraction.
template <class T>
__device__ __forceinline__ float qmv_row_4bit_staged(const MatmulArgs& a, const T* x, const std::uint32_t* w,
                                                     const std::uint16_t* scales, const std::uint16_t* biases,
                                                     bool active, int lane) {
  using E = Element<T>;
  using P = typename E::Pair;
  constexpr int kSegElems = 32;                                   // 16 bytes of nibbles
  constexpr int kWarpStep = 32 * kSegElems;                       // 1024
  constexpr int kTile = kQmvSegsInFlight * kWarpStep;             // 4096 = 256 threads x 16
  __shared__ uint4 pairs_s[kTile / 8];                            // 8 KB
  __shared__ float chunk_sum_s[kTile / 16];                       // 1 KB
  const int t = static_cast<int>(threadIdx.y) * 32 + lane;
  const P magic = E::magic_pair();
  float acc = 0.f;
  for (std::int64_t tile0 = 0; tile0 < a.k; tile0 += kTile) {
    uint4 packed[kQmvSegsInFlight] = {};
    T scale_bits[kQmvSegsInFlight] = {}, bias_bits[kQmvSegsInFlight] = {};
    #pragma unroll
    for (int s = 0; s < kQmvSegsInFlight; ++s) {
      const std::int64_t k0 = tile0 + s * kWarpStep + lane * kSegElems;
      if (active && k0 < a.k) {
        packed[s] = *reinterpret_cast<const uint4*>(w + k0 / 8);
        scale_bits[s] = load_element<T>(scales + k0 / a.group_size);
        bias_bits[s] = load_element<T>(biases + k0 / a.group_size);
      }
    }
    // Staging: thread t takes elements 16t..16t+15 of the tile = segment t/64, lane (t%64)/2,
    // chunk t%2 (groups 2*(t%2) and +1).
    if (const std::int64_t e0 = tile0 + 16 * t; e0 < a.k) {
      const uint4 lo = *reinterpret_cast<const uint4*>(x + e0), hi = *reinterpret_cast<const uint4*>(x + e0 + 8);
      const int seg = t / 64, owner = (t % 64) / 2, chunk = t % 2;
      pairs_s[(seg * 4 + 2 * chunk) * 32 + owner] = nibble_pairs(lo);
      pairs_s[(seg * 4 + 2 * chunk + 1) * 32 + owner] = nibble_pairs(hi);
      float sum = 0.f;
      for (const std::uint32_t v : {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w})
        sum += __low2float(as_pair<P>(v)) + __high2float(as_pair<P>(v));
      chunk_sum_s[(seg * 2 + chunk) * 32 + owner] = sum;
    }
    __syncthreads();
    #pragma unroll
    for (int s = 0; s < kQmvSegsInFlight; ++s) {
      const std::int64_t k0 = tile0 + s * kWarpStep + lane * kSegElems;
      if (!active || k0 >= a.k) break;
      const std::uint32_t words[4] = {packed[s].x, packed[s].y, packed[s].z, packed[s].w};
      const float scale = E::to_float(scale_bits[s]), bias = E::to_float(bias_bits[s]);
      #pragma unroll
      for (int c = 0; c < 2; ++c) {
        P xq = as_pair<P>(0u);
        #pragma unroll
        for (int g = 0; g < 2; ++g) {
          const uint4 xp = pairs_s[(s * 4 + 2 * c + g) * 32 + lane];
          const std::uint32_t xpairs[4] = {xp.x, xp.y, xp.z, xp.w};
          #pragma unroll
          for (int j = 0; j < 4; ++j) {
            const P q = __hsub2(as_pair<P>(((words[2 * c + g] >> (4 * j)) & 0x000F000Fu) | E::kMagicPair), magic);
            xq = __hfma2(as_pair<P>(xpairs[j]), q, xq);
          }
        }
        acc += scale * (__low2float(xq) + __high2float(xq)) + bias * chunk_sum_s[(s * 2 + c) * 32 + lane];
      }
    }
    __syncthreads();  // the next tile overwrites the staging
  }
  return acc;
}

template <class T, int BITS, class Index>
__global__ void __launch_bounds__(32 * kQmvWarps) qmv_kernel(MatmulArgs a) {
  static_assert(BITS == 4 || BITS == 8);
  using I = typename Index::type;
  using E = Element<T>;
  const I m = Index::of(a.m), n = Index::of(a.n), k = Index::of(a.k);
  const I col = Index::add(Index::mul(Index::of(blockIdx.x), Index::of(kQmvWarps)), Index::of(threadIdx.y));
  // A warp past the last column still helps stage the block's activations (4-bit).
  const bool active = col < n;
  if (BITS != 4 && !active) return;
  const int lane = threadIdx.x;
  const I y = Index::of(blockIdx.y);
  const std::uint32_t slice = blockIdx.z;
  const I x_batch = Index::of(a.lhs ? a.lhs[slice] : slice);
  const I w_batch = Index::of(a.rhs ? a.rhs[slice] : 0u);

  // Upstream: x += y*k + m*k*l; out += y*n + m*n*l; weights at (int64(col) + n*w_batch)*row_words.
  const I x_off = Index::add(Index::mul(y, k), Index::mul(Index::mul(m, k), x_batch));
  const I out_off = Index::add(Index::add(Index::mul(y, n), Index::mul(Index::mul(m, n), Index::of(slice))), col);
  const std::int64_t w_row = static_cast<std::int64_t>(col) + static_cast<std::int64_t>(Index::mul(n, w_batch));
  const std::int64_t words_per_row = a.k * BITS / 32;
  const std::int64_t groups_per_row = a.k / a.group_size;
  const T* x = reinterpret_cast<const T*>(a.x) + static_cast<std::int64_t>(x_off);
  const std::uint32_t* w = a.w + w_row * words_per_row;
  const std::uint16_t* scales = a.scales + w_row * groups_per_row;
  const std::uint16_t* biases = a.biases + w_row * groups_per_row;

  float acc;
  if constexpr (BITS == 4) acc = qmv_row_4bit_staged<T>(a, x, w, scales, biases, active, lane);
  else acc = qmv_row_direct<T, BITS>(a, x, w, scales, biases, lane);
  if (!active) return;
  #pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) acc += __shfl_xor_sync(0xffffffffu, acc, offset);
  if (lane == 0) reinterpret_cast<T*>(a.out)[static_cast<std::int64_t>(out_off)] = E::from_float(acc);
}

}  // namespace gridfuzz::affine
