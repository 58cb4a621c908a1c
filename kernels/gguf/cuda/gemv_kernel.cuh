#pragma once
// Device code: the moe_vec / mmvq kernels. One warp (block 32x1x1) computes one output element
// dst[p, row] = dot(weight row `row` of expert ids[p], q8_1 activation row of p's token), lanes
// mapped to blocks as docs/KERNELS.md, "vLLM moe_vec" says and reduced with a fixed shuffle-xor
// butterfly, so the value of an element does not depend on the grid that computed it.
//
// Two index disciplines:
//   gemv_legacy: upstream's (docs/KERNELS.md, "vLLM moe_vec"): row/pair from unsigned blockIdx,
//     expert base and weight block index in int, token*token_stride and p*nrows+row in unsigned
//     32-bit (mmvq: int). Wrapping is reproduced with unsigned arithmetic (defined) and int
//     conversions, so the legacy kernel walks to the same wrong addresses upstream would.
//   gemv_tiled: the fixed family (pair/row offsets passed by the host for tiles and z chunks),
//     instantiated with 32-bit indices when the host proved every index fits, else 64-bit.
#include <cuda_bf16.h>

#include <cstdint>
#include <type_traits>

#include "block_dot.cuh"
#include "gemv_args.hpp"

namespace gridfuzz::gguf::device_code {

__device__ __forceinline__ float warp_sum_butterfly(float v) {
  for (int mask = 16; mask >= 1; mask >>= 1) v += __shfl_xor_sync(0xffffffffu, v, mask, 32);
  return v;
}

__device__ __forceinline__ void store_out(float* dst, std::uint64_t i, float v) { dst[i] = v; }
__device__ __forceinline__ void store_out(__nv_bfloat16* dst, std::uint64_t i, float v) { dst[i] = __float2bfloat16_rn(v); }

template <QuantType T, class OutT>
__global__ void gemv_legacy(GemvArgs a) {
  constexpr int lanes = static_cast<int>(lanes_per_block(T));
  constexpr int step = static_cast<int>(blocks_per_warp(T));
  constexpr int block_bytes = static_cast<int>(quant_traits(T).block_bytes);
  constexpr int act_blocks_per_block = static_cast<int>(quant_traits(T).qk / 32);
  const int lane = static_cast<int>(threadIdx.x);
  const unsigned row = blockIdx.x;
  if (row >= static_cast<unsigned>(a.nrows)) return;
  const unsigned p = a.pairs_on_z ? blockIdx.z : blockIdx.y;
  const int blocks_per_row = static_cast<int>(a.blocks_per_row);

  const std::uint8_t* w = a.weights;
  const block_q8_1* x;
  if (a.ids != nullptr) {
    const unsigned token = p / static_cast<unsigned>(a.top_k);
    const int expert = a.ids[p];
    // int expert*nrows*blocks_per_row (wraps like upstream's int product)
    const int expert_base = static_cast<int>(static_cast<unsigned>(expert) * static_cast<unsigned>(a.nrows) *
                                             static_cast<unsigned>(blocks_per_row));
    w += static_cast<long long>(expert_base) * block_bytes;
    x = reinterpret_cast<const block_q8_1*>(a.act + token * static_cast<unsigned>(a.token_stride));
  } else {
    const int vec_block = static_cast<int>(p * static_cast<unsigned>(a.token_stride / 9));
    x = reinterpret_cast<const block_q8_1*>(a.act) + vec_block;
  }
  float sum = 0.0f;
  for (int i = lane / lanes; i < blocks_per_row; i += step) {
    const int ibx = static_cast<int>(row * static_cast<unsigned>(blocks_per_row) + static_cast<unsigned>(i));
    sum += block_dot<T>(w + static_cast<long long>(ibx) * block_bytes, x + i * act_blocks_per_block, lane % lanes);
  }
  sum = warp_sum_butterfly(sum);
  if (lane == 0) {
    const unsigned u = p * static_cast<unsigned>(a.nrows) + row;
    const std::uint64_t at = a.ids != nullptr ? u : static_cast<std::uint64_t>(static_cast<long long>(static_cast<int>(u)));
    store_out(static_cast<OutT*>(a.dst), at, sum);
  }
}

// The pair's token (its activation row): p / top_k. Below 2^32 pairs by the host's multiply-high
// divider (gemv_args.hpp); above, the 64-bit division (tens of instructions, but only there).
__device__ __forceinline__ std::uint32_t token_of(std::uint32_t p, const GemvArgs& a) { return a.top_k_div.divide(p); }
__device__ __forceinline__ std::uint64_t token_of(std::uint64_t p, const GemvArgs& a) {
  return p <= 0xFFFFFFFFull ? a.top_k_div.divide(static_cast<std::uint32_t>(p)) : p / a.top_k;
}

// The kernel of every non-legacy geometry: pair = pair_offset + blockIdx.x and row = row_offset +
// blockIdx.y (PairsOnX), otherwise rows on x and pairs on y or z (a.pairs_on_z); the offsets come
// from the host's tiles and z chunks.
//
// Index is the type of every index expression: std::uint32_t when the host proved that each of
// them stays below 2^32 for this call (gemv_index_width, launch_geometry.cpp: the plan declares
// these very expressions uint32 then), std::uint64_t otherwise. Byte offsets are formed by a
// widening multiply (32x32 -> 64 bit, one instruction) of a block index, as upstream does, so the
// narrow kernel runs legacy's instruction count with the fixed geometry. The weight row base is
// computed once per warp; inside the row the block offset is an int: a row is < 2^31 bytes (the
// plan's weight_in_row_bytes), so the 64-bit kernel's loop is as cheap as the narrow one's.
template <QuantType T, class OutT, bool PairsOnX, class Index>
__global__ void gemv_tiled(GemvArgs a) {
  static_assert(std::is_same_v<Index, std::uint32_t> || std::is_same_v<Index, std::uint64_t>);
  constexpr int lanes = static_cast<int>(lanes_per_block(T));
  constexpr int step = static_cast<int>(blocks_per_warp(T));
  constexpr int block_bytes = static_cast<int>(quant_traits(T).block_bytes);
  constexpr int act_blocks_per_block = static_cast<int>(quant_traits(T).qk / 32);
  const int lane = static_cast<int>(threadIdx.x);
  Index row, p;
  if constexpr (PairsOnX) {
    p = static_cast<Index>(a.pair_offset) + blockIdx.x;
    row = static_cast<Index>(a.row_offset) + blockIdx.y;
  } else {
    row = static_cast<Index>(a.row_offset) + blockIdx.x;
    p = static_cast<Index>(a.pair_offset) + (a.pairs_on_z ? blockIdx.z : blockIdx.y);
  }
  const Index nrows = static_cast<Index>(a.nrows);
  if (row >= nrows) return;
  const bool moe = a.ids != nullptr;
  // The expert id is loaded before the token division so that its latency hides the division.
  const Index expert = moe ? static_cast<Index>(static_cast<std::uint32_t>(a.ids[p])) : Index{0};
  const Index token = moe ? token_of(p, a) : p;
  const Index row_block = (expert * nrows + row) * static_cast<Index>(a.blocks_per_row);
  const std::uint8_t* w = a.weights + static_cast<std::uint64_t>(row_block) * block_bytes;
  const auto* x = reinterpret_cast<const block_q8_1*>(
      a.act + static_cast<std::uint64_t>(token * static_cast<Index>(a.token_stride)));
  const int blocks_per_row = static_cast<int>(a.blocks_per_row);
  float sum = 0.0f;
  for (int i = lane / lanes; i < blocks_per_row; i += step)
    sum += block_dot<T>(w + i * block_bytes, x + i * act_blocks_per_block, lane % lanes);
  sum = warp_sum_butterfly(sum);
  if (lane == 0) store_out(static_cast<OutT*>(a.dst), static_cast<std::uint64_t>(p * nrows + row), sum);
}

}  // namespace gridfuzz::gguf::device_code
