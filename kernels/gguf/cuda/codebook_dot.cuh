#pragma once
// Device code: block_dot of the codebook i-quants (iq2_xxs, iq2_xs, iq2_s, iq3_xxs, iq3_s, iq1_s,
// iq1_m); included by block_dot.cuh when GRIDFUZZ_GGUF_IQ. 8 lanes per 256-value block, slot =
// 32-value sub-block ib32 = its q8_1 block (QI 8, VDR 1, as vLLM launches them).
//
// The integer dots are exact, in any order. The float part of each type is written as the same
// sequence of fp32 operations as vLLM's vec_dot_<type>_q8_1 (vecdotq.cuh:1531-1764), so our
// kernels and vLLM's compute the same value per block: for iq2_xs, iq2_s, iq1_s and iq1_m every
// operation before the last multiply is exact (small integers times halves), for iq2_xxs, iq3_xxs
// and iq3_s the scale is formed in the same order. The per-lane sum and the butterfly are the same
// in both kernels (gemv_kernel.cuh), so the results are expected bit-equal; the GPU suite checks it.
#include <cstdint>

#include "gridfuzz/formats/gguf/iq_grid_data.inc"

namespace gridfuzz::gguf::device_code {

// The codebooks (IqGrids.cmake), one copy per translation unit in global memory (the lanes of a
// warp read different entries: constant memory would serialise them).
static __device__ const std::uint64_t kIq2xxsGridDevice[256] = {GRIDFUZZ_IQ2XXS_GRID};
static __device__ const std::uint64_t kIq2xsGridDevice[512] = {GRIDFUZZ_IQ2XS_GRID};
static __device__ const std::uint64_t kIq2sGridDevice[1024] = {GRIDFUZZ_IQ2S_GRID};
static __device__ const std::uint32_t kIq3xxsGridDevice[256] = {GRIDFUZZ_IQ3XXS_GRID};
static __device__ const std::uint32_t kIq3sGridDevice[512] = {GRIDFUZZ_IQ3S_GRID};
static __device__ const std::uint32_t kIq1sGridDevice[2048] = {GRIDFUZZ_IQ1S_GRID};
static __device__ const std::uint8_t kIq2SignsDevice[128] = {GRIDFUZZ_IQ2_KSIGNS};

// Four unsigned grid bytes (each < 128) with the signs of 4 bits applied (bit b set: byte b
// negated): the bits are spread to the bytes' low bits by one multiply (no carries: the four
// partial products are 7 bits apart), widened to 0x00/0xFF masks, and each byte is
// two's-complement negated where masked.
__device__ __forceinline__ int apply_signs4(std::uint32_t grid4, unsigned signs4) {
  const std::uint32_t mask = (((signs4 & 15u) * 0x00204081u) & 0x01010101u) * 0xFFu;
  return static_cast<int>(__vsub4(grid4 ^ mask, mask));
}

__device__ __forceinline__ std::uint32_t load_u32_aligned2(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(load_int_aligned2(p, 0));
}
__device__ __forceinline__ unsigned load_u16(const std::uint8_t* p) { return *reinterpret_cast<const std::uint16_t*>(p); }

// Dot of one 8-value group (grid point of 8 bytes, 8 sign bits) with q8_1 ints k, k+1.
__device__ __forceinline__ int grid8_dot(std::uint64_t grid, unsigned signs8, const block_q8_1& a, int k, int sumi) {
  sumi = dp4a_op(apply_signs4(static_cast<std::uint32_t>(grid), signs8), q8_int(a, k), sumi);
  return dp4a_op(apply_signs4(static_cast<std::uint32_t>(grid >> 32), signs8 >> 4), q8_int(a, k + 1), sumi);
}

template <>
__device__ __forceinline__ float block_dot<QuantType::iq2_xxs>(const std::uint8_t* block, const block_q8_1* act, int slot) {
  const auto& b = *reinterpret_cast<const block_iq2_xxs*>(block);
  const std::uint8_t* q = reinterpret_cast<const std::uint8_t*>(b.qs) + 8 * slot;
  const std::uint32_t aux = load_u32_aligned2(q + 4);  // 4 x 7-bit ksigns index, scale in bits 28-31
  const block_q8_1& a = act[slot];
  int sumi = 0;
  for (int l = 0; l < 4; ++l) sumi = grid8_dot(kIq2xxsGridDevice[q[l]], kIq2SignsDevice[(aux >> (7 * l)) & 127u], a, 2 * l, sumi);
  const float d = half_to_float(b.d) * (0.5f + static_cast<float>(aux >> 28)) * half_to_float(a.d) * 0.25f;
  return d * static_cast<float>(sumi);
}

template <>
__device__ __forceinline__ float block_dot<QuantType::iq2_xs>(const std::uint8_t* block, const block_q8_1* act, int slot) {
  const auto& b = *reinterpret_cast<const block_iq2_xs*>(block);
  const block_q8_1& a = act[slot];
  int sumi[2] = {0, 0};  // values 0-15 and 16-31: one 4-bit scale each
  for (int l = 0; l < 4; ++l) {
    const unsigned q = b.qs[4 * slot + l];
    sumi[l / 2] = grid8_dot(kIq2xsGridDevice[q & 511u], kIq2SignsDevice[q >> 9], a, 2 * l, sumi[l / 2]);
  }
  const int ls1 = b.scales[slot] & 15, ls2 = b.scales[slot] >> 4;
  const float d = half_to_float(b.d) * half_to_float(a.d) * 0.25f;
  return d * ((0.5f + static_cast<float>(ls1)) * static_cast<float>(sumi[0]) +
              (0.5f + static_cast<float>(ls2)) * static_cast<float>(sumi[1]));
}

template <>
__device__ __forceinline__ float block_dot<QuantType::iq2_s>(const std::uint8_t* block, const block_q8_1* act, int slot) {
  const auto& b = *reinterpret_cast<const block_iq2_s*>(block);
  const block_q8_1& a = act[slot];
  const unsigned qh = b.qh[slot];
  int sumi[2] = {0, 0};
  for (int l = 0; l < 4; ++l) {
    const unsigned index = b.qs[4 * slot + l] | ((qh >> (2 * l)) & 3u) << 8;
    sumi[l / 2] = grid8_dot(kIq2sGridDevice[index], b.qs[32 + 4 * slot + l], a, 2 * l, sumi[l / 2]);
  }
  const int ls1 = b.scales[slot] & 15, ls2 = b.scales[slot] >> 4;
  const float d = half_to_float(b.d) * half_to_float(a.d) * 0.25f;
  return d * ((0.5f + static_cast<float>(ls1)) * static_cast<float>(sumi[0]) +
              (0.5f + static_cast<float>(ls2)) * static_cast<float>(sumi[1]));
}

template <>
__device__ __forceinline__ float block_dot<QuantType::iq3_xxs>(const std::uint8_t* block, const block_q8_1* act, int slot) {
  const auto& b = *reinterpret_cast<const block_iq3_xxs*>(block);
  const std::uint8_t* q3 = b.qs + 8 * slot;
  const std::uint32_t aux = load_u32_aligned2(b.qs + 64 + 4 * slot);
  const block_q8_1& a = act[slot];
  int sumi = 0;
  for (int l = 0; l < 4; ++l) {
    const unsigned signs = kIq2SignsDevice[(aux >> (7 * l)) & 127u];
    sumi = dp4a_op(apply_signs4(kIq3xxsGridDevice[q3[2 * l]], signs), q8_int(a, 2 * l), sumi);
    sumi = dp4a_op(apply_signs4(kIq3xxsGridDevice[q3[2 * l + 1]], signs >> 4), q8_int(a, 2 * l + 1), sumi);
  }
  const float d = half_to_float(b.d) * (0.5f + static_cast<float>(aux >> 28)) * half_to_float(a.d) * 0.5f;
  return d * static_cast<float>(sumi);
}

template <>
__device__ __forceinline__ float block_dot<QuantType::iq3_s>(const std::uint8_t* block, const block_q8_1* act, int slot) {
  const auto& b = *reinterpret_cast<const block_iq3_s*>(block);
  const block_q8_1& a = act[slot];
  const unsigned qh = b.qh[slot];
  int sumi = 0;
  for (int k = 0; k < 8; ++k) {  // 4-value group k: grid index bit 8 is bit k of qh
    const unsigned index = b.qs[8 * slot + k] | ((qh >> k) & 1u) << 8;
    const unsigned signs = b.signs[4 * slot + k / 2] >> (4 * (k % 2));
    sumi = dp4a_op(apply_signs4(kIq3sGridDevice[index], signs), q8_int(a, k), sumi);
  }
  const int ls = (b.scales[slot / 2] >> (4 * (slot % 2))) & 15;
  const float d = half_to_float(b.d) * (0.5f + static_cast<float>(ls)) * half_to_float(a.d) * 0.5f;
  return d * static_cast<float>(sumi);
}

// iq1: the grid's nibbles hold g + 1 in {0, 1, 2}; values 0-3 of a point are the low nibbles of
// its bytes, values 4-7 the high nibbles.
__device__ __forceinline__ int grid1_dot(std::uint32_t grid, const block_q8_1& a, int k, int sumi) {
  sumi = dp4a_op(static_cast<int>(grid & 0x0F0F0F0Fu), q8_int(a, k), sumi);
  return dp4a_op(static_cast<int>((grid >> 4) & 0x0F0F0F0Fu), q8_int(a, k + 1), sumi);
}

// iq1_s: value = dl * (g + delta) = dl * (g + 1) + dl * (delta - 1); the offset part goes through
// the q8_1 block sum s (reference_dot_via_q8_1_sums models it).
template <>
__device__ __forceinline__ float block_dot<QuantType::iq1_s>(const std::uint8_t* block, const block_q8_1* act, int slot) {
  const auto& b = *reinterpret_cast<const block_iq1_s*>(block);
  const block_q8_1& a = act[slot];
  const unsigned qh = b.qh[slot];
  int sumi = 0;
  for (int l = 0; l < 4; ++l) sumi = grid1_dot(kIq1sGridDevice[b.qs[4 * slot + l] | ((qh >> (3 * l)) & 7u) << 8], a, 2 * l, sumi);
  const float dl = half_to_float(b.d) * static_cast<float>(2 * ((qh >> 12) & 7u) + 1);
  const float delta_minus_one = qh & 0x8000u ? -1.125f : -0.875f;
  return dl * (half_to_float(a.d) * static_cast<float>(sumi) + half_to_float(a.s) * delta_minus_one);
}

// iq1_m: 3-bit scale per 16 values, delta per 8 values, taken with exact integer sums of the q8_1
// quants (no s).
template <>
__device__ __forceinline__ float block_dot<QuantType::iq1_m>(const std::uint8_t* block, const block_q8_1* act, int slot) {
  const auto& b = *reinterpret_cast<const block_iq1_m*>(block);
  const block_q8_1& a = act[slot];
  int sumi[2] = {0, 0};
  float sumf[2] = {0.0f, 0.0f};  // sums of (delta - 1) * sum(q): exact (small integers times 7/8 or 9/8)
  for (int l = 0; l < 4; ++l) {
    const unsigned nibble = (b.qh[2 * slot + l / 2] >> (4 * (l % 2))) & 15u;
    sumi[l / 2] = grid1_dot(kIq1sGridDevice[b.qs[4 * slot + l] | (nibble & 7u) << 8], a, 2 * l, sumi[l / 2]);
    const int sumq = dp4a_op(q8_int(a, 2 * l + 1), kOnes, dp4a_op(q8_int(a, 2 * l), kOnes, 0));
    sumf[l / 2] += (nibble & 8u ? -1.125f : -0.875f) * static_cast<float>(sumq);
  }
  const unsigned sc[4] = {load_u16(b.scales), load_u16(b.scales + 2), load_u16(b.scales + 4), load_u16(b.scales + 6)};
  const unsigned d_bits = (sc[0] >> 12) | ((sc[1] >> 8) & 0x00F0u) | ((sc[2] >> 4) & 0x0F00u) | (sc[3] & 0xF000u);
  const float d = half_to_float(static_cast<std::uint16_t>(d_bits)) * half_to_float(a.d);
  const unsigned pair = sc[slot / 2] >> (6 * (slot % 2));  // the two 3-bit scales of this sub-block
  const int sc0 = 2 * static_cast<int>(pair & 7u) + 1, sc1 = 2 * static_cast<int>((pair >> 3) & 7u) + 1;
  return d * ((static_cast<float>(sumi[0]) + sumf[0]) * static_cast<float>(sc0) +
              (static_cast<float>(sumi[1]) + sumf[1]) * static_cast<float>(sc1));
}

}  // namespace gridfuzz::gguf::device_code
