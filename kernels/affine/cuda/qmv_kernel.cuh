#pragma once
// qmv / gather_qmv: one warp per output column (weight row), block (32, 8) = 8 columns, grid
// (ceil(n/8), m, l): token row y on grid.y, batch slice on grid.z (docs/KERNELS.md, "MLX qmv").
//
// Each lane reads its weights 16 bytes at a time (a segment: 32 elements of 4 bits, 16 of 8), four
// segments in flight before any is used, so that a warp keeps 2 KB of weight loads outstanding
// (the previous kernel, one 8-byte load per lane at a time, read at about a third of HBM's rate). Inside a segment the
// arithmetic is per chunk of 16 elements (<= 4-bit) or 8 (8-bit), as before: products accumulated in
// the activation type for weights below 8 bits and in float for 8-bit weights (our reading of
// upstream's per-lane accumulator type); each chunk is folded in as scale*sum(x*q) + bias*sum(x) in
// float, and the warp reduces in float. K is a multiple of the group size (>= 32), so a segment,
// aligned to its own length, lies inside one group.
#include <cstdint>
#include <type_traits>

#include "element_types.cuh"
#include "gridfuzz/affine/bit_packing.hpp"
#include "index_math.cuh"
#include "kernel_args.hpp"

namespace gridfuzz::affine {

inline constexpr int kQmvWarps = 8;

// One chunk: kElems elements of packed weights `words` against activations `x`.
template <class T, int BITS, int kElems>
__device__ __forceinline__ float qmv_chunk(const std::uint32_t* words, const T* x, float scale, float bias) {
  using E = Element<T>;
  if constexpr (BITS == 4) {
    // Two words = 16 nibbles. Nibbles j and j+4 of a word sit at bits 4j and 16+4j, so
    // ((w >> 4j) & 0x000F000F) | magic is the pair (magic + q_j, magic + q_{j+4}); the activations
    // are paired the same way with byte permutes. Products and sums accumulate in the activation
    // type, two lanes of a pair at a time (even-odd split of the chunk's sequential sum).
    using P = typename E::Pair;
    const P magic = E::magic_pair();
    P xq = as_pair<P>(0u), xs = as_pair<P>(0u);
    #pragma unroll
    for (int wi = 0; wi < kElems / 8; ++wi) {
      const uint4 xv = *reinterpret_cast<const uint4*>(x + 8 * wi);  // (x0,x1) (x2,x3) (x4,x5) (x6,x7)
      const std::uint32_t xpairs[4] = {__byte_perm(xv.x, xv.z, 0x5410), __byte_perm(xv.x, xv.z, 0x7632),
                                       __byte_perm(xv.y, xv.w, 0x5410), __byte_perm(xv.y, xv.w, 0x7632)};
      #pragma unroll
      for (int j = 0; j < 4; ++j) {
        const P q = __hsub2(as_pair<P>(((words[wi] >> (4 * j)) & 0x000F000Fu) | E::kMagicPair), magic);
        const P xp = as_pair<P>(xpairs[j]);
        xq = __hfma2(xp, q, xq);
        xs = __hadd2(xs, xp);
      }
    }
    const float xq_f = __low2float(xq) + __high2float(xq);
    const float xs_f = __low2float(xs) + __high2float(xs);
    return scale * xq_f + bias * xs_f;
  } else {
    T xs_vals[kElems];
    #pragma unroll
    for (int v = 0; v < kElems / 8; ++v)
      *reinterpret_cast<uint4*>(&xs_vals[8 * v]) = *reinterpret_cast<const uint4*>(x + 8 * v);
    float xq = 0.f, xs = 0.f;
    #pragma unroll
    for (int i = 0; i < kElems; ++i) {
      const float q = static_cast<float>(unpack_element(words, static_cast<std::size_t>(i), BITS));
      xq = fmaf(E::to_float(xs_vals[i]), q, xq);
      xs += E::to_float(xs_vals[i]);
    }
    return scale * xq + bias * xs;
  }
}

template <class T, int BITS, class Index>
__global__ void __launch_bounds__(32 * kQmvWarps) qmv_kernel(MatmulArgs a) {
  using I = typename Index::type;
  using E = Element<T>;
  constexpr int kElems = BITS <= 4 ? 16 : 8;
  constexpr int kSegElems = 128 / BITS;  // one 16-byte load of packed weights
  constexpr int kChunkWords = kElems * BITS / 32;
  static_assert(kSegElems % kElems == 0 && kChunkWords == 2);
  constexpr int kSegsInFlight = 4;
  constexpr std::int64_t kWarpStep = 32 * kSegElems;

  const I m = Index::of(a.m), n = Index::of(a.n), k = Index::of(a.k);
  const I col = Index::add(Index::mul(Index::of(blockIdx.x), Index::of(kQmvWarps)), Index::of(threadIdx.y));
  if (col >= n) return;
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

  float acc = 0.f;
  for (std::int64_t base = static_cast<std::int64_t>(lane) * kSegElems; base < a.k; base += kSegsInFlight * kWarpStep) {
    // Every load of the four segments first (weights, and the group's scale and bias, which stream
    // from memory as the weights do): loading a scale only when its segment is reached put a
    // memory round trip between consecutive segments.
    uint4 packed[kSegsInFlight] = {};
    T scale_bits[kSegsInFlight] = {}, bias_bits[kSegsInFlight] = {};
    #pragma unroll
    for (int s = 0; s < kSegsInFlight; ++s) {
      const std::int64_t k0 = base + s * kWarpStep;
      if (k0 < a.k) {
        packed[s] = *reinterpret_cast<const uint4*>(w + k0 * BITS / 32);
        const std::int64_t g = k0 / a.group_size;
        scale_bits[s] = load_element<T>(scales + g);
        bias_bits[s] = load_element<T>(biases + g);
      }
    }
    #pragma unroll
    for (int s = 0; s < kSegsInFlight; ++s) {
      const std::int64_t k0 = base + s * kWarpStep;
      if (k0 >= a.k) break;
      const std::uint32_t words[4] = {packed[s].x, packed[s].y, packed[s].z, packed[s].w};
      const float scale = E::to_float(scale_bits[s]), bias = E::to_float(bias_bits[s]);
      #pragma unroll
      for (int c = 0; c < kSegElems / kElems; ++c)
        acc += qmv_chunk<T, BITS, kElems>(words + c * kChunkWords, x + k0 + c * kElems, scale, bias);
    }
  }
  #pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) acc += __shfl_xor_sync(0xffffffffu, acc, offset);
  if (lane == 0) reinterpret_cast<T*>(a.out)[static_cast<std::int64_t>(out_off)] = E::from_float(acc);
}

}  // namespace gridfuzz::affine
