#pragma once
// qmv / gather_qmv: one warp per output column (weight row), block (32, 8) = 8 columns, grid
// (ceil(n/8), m, l): token row y on grid.y, batch slice on grid.z (docs/KERNELS.md, "MLX qmv").
//
// Each lane walks K in chunks of 16 elements (weights <= 4-bit) or 8 (8-bit). Inside a chunk the
// products are accumulated in the activation type for weights below 8 bits and in float for
// 8-bit weights (our reading of upstream's per-lane accumulator type); each chunk is folded in as
// scale*sum(x*q) + bias*sum(x) in float, and the warp reduces in float.
#include <cstdint>
#include <type_traits>

#include "element_types.cuh"
#include "gridfuzz/affine/bit_packing.hpp"
#include "index_math.cuh"
#include "kernel_args.hpp"

namespace gridfuzz::affine {

inline constexpr int kQmvWarps = 8;

template <class T, int BITS, class Index>
__global__ void __launch_bounds__(32 * kQmvWarps) qmv_kernel(MatmulArgs a) {
  using I = typename Index::type;
  using E = Element<T>;
  constexpr int kElems = BITS <= 4 ? 16 : 8;
  constexpr int kWords = kElems * BITS / 32;
  static_assert(kWords == 2, "one 8-byte load of packed weights per chunk");
  using Acc = std::conditional_t<BITS == 8, float, T>;

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
  for (std::int64_t k0 = static_cast<std::int64_t>(lane) * kElems; k0 < a.k; k0 += 32 * kElems) {
    const uint2 packed = *reinterpret_cast<const uint2*>(w + k0 * BITS / 32);
    const std::uint32_t words[2] = {packed.x, packed.y};
    T xs_vals[kElems];
    #pragma unroll
    for (int v = 0; v < kElems / 8; ++v)
      *reinterpret_cast<uint4*>(&xs_vals[8 * v]) = *reinterpret_cast<const uint4*>(x + k0 + 8 * v);
    Acc xq = Acc(0.f), xs = Acc(0.f);
    #pragma unroll
    for (int i = 0; i < kElems; ++i) {
      const float q = static_cast<float>(unpack_element(words, static_cast<std::size_t>(i), BITS));
      if constexpr (std::is_same_v<Acc, float>) {
        xq = fmaf(E::to_float(xs_vals[i]), q, xq);
        xs += E::to_float(xs_vals[i]);
      } else {
        xq = __hfma(xs_vals[i], E::from_float(q), xq);
        xs = __hadd(xs, xs_vals[i]);
      }
    }
    const std::int64_t g = k0 / a.group_size;
    const float scale = E::to_float(load_element<T>(scales + g));
    const float bias = E::to_float(load_element<T>(biases + g));
    float xq_f, xs_f;
    if constexpr (std::is_same_v<Acc, float>) {
      xq_f = xq;
      xs_f = xs;
    } else {
      xq_f = E::to_float(xq);
      xs_f = E::to_float(xs);
    }
    acc += scale * xq_f + bias * xs_f;
  }
  #pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) acc += __shfl_xor_sync(0xffffffffu, acc, offset);
  if (lane == 0) reinterpret_cast<T*>(a.out)[static_cast<std::int64_t>(out_off)] = E::from_float(acc);
}

}  // namespace gridfuzz::affine
