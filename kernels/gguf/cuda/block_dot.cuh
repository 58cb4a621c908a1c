#pragma once
// Device code: the contribution of one lane to one weight block's dot product with the q8_1
// activation blocks it covers (docs/KERNELS.md, "GGUF dot product"). Integer dots of weight quants
// with q8_1 quants (__dp4a, four int8 products per instruction), then the block's scales in fp32.
//
// Lane mapping (docs/KERNELS.md, "vLLM moe_vec"): lanes_per_block(t) = QI/VDR lanes share one
// block; `slot` in [0, lanes_per_block) says which part of it this lane takes. Each slot's part is
// fixed, so an output element's arithmetic never depends on the grid: big and split launches are
// bit-equal.
//
// Offsets and mins:
//   q4_0, q5_0, q4_1, q5_1: the weight offset (-8d, -16d, m) is folded through the q8_1 block sum
//     s (docs/KERNELS.md, "GGUF dot product"), each of the block's lanes taking its 1/lanes share.
//     This is what folds_offset_through_q8_1_sum() and reference_dot_via_q8_1_sums() model.
//   q2_K, q4_K, q5_K: the min term uses the exact integer sum of the q8_1 quants of the
//     sub-block (dp4a with 0x01010101), never s: q2_K's 16-value sub-blocks do not line up with
//     s, and for q4_K/q5_K this keeps the CPU reference exact (reference_dot models it; the
//     colleague's folds predicate already says "false" for them).
//   q3_K, q6_K: the -4 / -32 bias is subtracted as 4 * / 32 * the same integer sum.
#include <cuda_fp16.h>

#include <cstddef>
#include <cstdint>

#include "gridfuzz/gguf/formats.hpp"

namespace gridfuzz::gguf::device_code {

// Block structs are only 2-byte aligned (18-, 22-, 34-, 84-, 110-, 210-byte strides), so weight
// ints are assembled from two 16-bit loads.
__device__ __forceinline__ int load_int_aligned2(const std::uint8_t* p, int i) {
  const auto* h = reinterpret_cast<const std::uint16_t*>(p);
  return static_cast<int>(static_cast<std::uint32_t>(h[2 * i]) | (static_cast<std::uint32_t>(h[2 * i + 1]) << 16));
}

// q8_1 blocks are 4-byte aligned (36-byte stride from an int32 row): direct int loads.
__device__ __forceinline__ int q8_int(const block_q8_1& b, int i) { return reinterpret_cast<const int*>(b.qs)[i]; }
__device__ __forceinline__ float half_to_float(std::uint16_t bits) { return __half2float(__ushort_as_half(bits)); }

// A q8_1 block's d and s (halves at bytes 0 and 2) in one 32-bit load.
struct Q8DS {
  float d, s;
};
__device__ __forceinline__ Q8DS q8_d_s(const block_q8_1& b) {
  const std::uint32_t ds = *reinterpret_cast<const std::uint32_t*>(&b.d);
  return {half_to_float(static_cast<std::uint16_t>(ds & 0xFFFFu)), half_to_float(static_cast<std::uint16_t>(ds >> 16))};
}
static_assert(offsetof(block_q8_1, d) == 0 && offsetof(block_q8_1, s) == 2);

// The dp4a of every block dot. __dp4a's asm is volatile, and NVVM then neither merges nor moves a
// load across it. A translation unit that defines GRIDFUZZ_GGUF_DP4A_MOVABLE before including this
// file gets the same instruction as a plain asm, which the compiler may merge loads around: the
// by_expert GEMV applies one staged weight block to 8 pairs and one activation block to 4 rows and
// needs each loaded once (its PTX: 20 shared-memory weight loads per q4_0 step instead of 160).
// Every other kernel keeps __dp4a's code, unchanged.
#ifdef GRIDFUZZ_GGUF_DP4A_MOVABLE
__device__ __forceinline__ int dp4a_op(int a, int b, int c) {
  int r;
  asm("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}
#else
__device__ __forceinline__ int dp4a_op(int a, int b, int c) { return __dp4a(a, b, c); }
#endif

constexpr int kOnes = 0x01010101;  // dp4a with this sums the four int8 lanes of the other operand

// Four 4-bit table indices (one per byte, 0..15) -> four int8 iq4 table values, with two
// __byte_perm lookups into the table held as four ints and a per-byte select on index bit 3.
__device__ __forceinline__ int iq4_lookup4(int q) {
  constexpr auto pack = [](int first) {
    return static_cast<std::uint32_t>(static_cast<std::uint8_t>(iq4nl_value(first)) |
                            static_cast<std::uint32_t>(static_cast<std::uint8_t>(iq4nl_value(first + 1))) << 8 |
                            static_cast<std::uint32_t>(static_cast<std::uint8_t>(iq4nl_value(first + 2))) << 16 |
                            static_cast<std::uint32_t>(static_cast<std::uint8_t>(iq4nl_value(first + 3))) << 24);
  };
  constexpr std::uint32_t t0 = pack(0), t1 = pack(4), t2 = pack(8), t3 = pack(12);
  const std::uint32_t u = static_cast<std::uint32_t>(q);
  const std::uint32_t sel = (u & 7u) | ((u >> 8) & 7u) << 4 | ((u >> 16) & 7u) << 8 | ((u >> 24) & 7u) << 12;
  const std::uint32_t low = __byte_perm(t0, t1, sel), high = __byte_perm(t2, t3, sel);
  const std::uint32_t mask = ((u & 0x08080808u) >> 3) * 0xFFu;
  return static_cast<int>((high & mask) | (low & ~mask));
}

// Spreads 4 bits (bit b -> bit 4 of byte b): the 5th quant bit of q5 formats.
__device__ __forceinline__ int bits_to_byte_bit4(std::uint32_t h4) {
  return static_cast<int>(((h4 & 1u) << 4) | ((h4 & 2u) << 11) | ((h4 & 4u) << 18) | ((h4 & 8u) << 25));
}

template <QuantType T>
__device__ __forceinline__ float block_dot(const std::uint8_t* block, const block_q8_1* act, int slot);

// Share of the block-level offset term each of a 32-block's lanes adds (VDR/QI).
template <QuantType T>
__host__ __device__ constexpr float lane_share() {
  return static_cast<float>(quant_traits(T).vdr) / static_cast<float>(quant_traits(T).qi);
}

// ---- 32-value blocks: 2 lanes (4-bit, 5-bit) or 4 lanes (q8_0) per block, 2 ints each ----

// Four 4-bit quants (one per byte) as int8 values: themselves (q4_0, q4_1) or their iq4 table
// values (iq4_nl).
template <bool Iq4Table>
__device__ __forceinline__ int nibble_values(int q) {
  if constexpr (Iq4Table)
    return iq4_lookup4(q);
  else
    return q;
}

// Sum of the 4-bit quants of ints k (elements 4k..4k+3 and 16+4k..) times the q8_1 quants.
template <bool Iq4Table>
__device__ __forceinline__ int q4_sumi(const std::uint8_t* qs, const block_q8_1& a, int slot) {
  int sumi = 0;
  for (int j = 0; j < 2; ++j) {
    const int k = 2 * slot + j;
    const int v = load_int_aligned2(qs, k);
    sumi = dp4a_op(nibble_values<Iq4Table>(v & 0x0F0F0F0F), q8_int(a, k), sumi);
    sumi = dp4a_op(nibble_values<Iq4Table>((v >> 4) & 0x0F0F0F0F), q8_int(a, k + 4), sumi);
  }
  return sumi;
}

// Sum of the 5-bit quants of ints k (elements 4k..4k+3 and 16+4k..) times the q8_1 quants.
__device__ __forceinline__ int q5_sumi(const std::uint8_t* qs, std::uint32_t qh, const block_q8_1& a, int slot) {
  int sumi = 0;
  for (int j = 0; j < 2; ++j) {
    const int k = 2 * slot + j;
    const int v = load_int_aligned2(qs, k);
    const int low = (v & 0x0F0F0F0F) | bits_to_byte_bit4((qh >> (4 * k)) & 15u);
    const int high = ((v >> 4) & 0x0F0F0F0F) | bits_to_byte_bit4((qh >> (16 + 4 * k)) & 15u);
    sumi = dp4a_op(low, q8_int(a, k), sumi);
    sumi = dp4a_op(high, q8_int(a, k + 4), sumi);
  }
  return sumi;
}

// q4_0 / q5_0: d * (d8 * sumi - offset * this lane's share of s8), the weight offset (8 or 16)
// folded through the q8_1 block sum.
template <QuantType T, class Block>
__device__ __forceinline__ float offset_block_dot(const Block& b, int sumi, const block_q8_1& a, float offset) {
  const auto [d8, s8] = q8_d_s(a);
  return half_to_float(b.d) * (d8 * static_cast<float>(sumi) - offset * lane_share<T>() * s8);
}

// q4_1 / q5_1: d * d8 * sumi + m * s8 * this lane's share.
template <QuantType T, class Block>
__device__ __forceinline__ float min_block_dot(const Block& b, int sumi, const block_q8_1& a) {
  const auto [d8, s8] = q8_d_s(a);
  return half_to_float(b.d) * d8 * static_cast<float>(sumi) + half_to_float(b.m) * s8 * lane_share<T>();
}

template <>
__device__ __forceinline__ float block_dot<QuantType::q4_0>(const std::uint8_t* block, const block_q8_1* act, int slot) {
  const auto& b = *reinterpret_cast<const block_q4_0*>(block);
  return offset_block_dot<QuantType::q4_0>(b, q4_sumi<false>(b.qs, act[0], slot), act[0], 8.0f);
}

template <>
__device__ __forceinline__ float block_dot<QuantType::q4_1>(const std::uint8_t* block, const block_q8_1* act, int slot) {
  const auto& b = *reinterpret_cast<const block_q4_1*>(block);
  return min_block_dot<QuantType::q4_1>(b, q4_sumi<false>(b.qs, act[0], slot), act[0]);
}

template <>
__device__ __forceinline__ float block_dot<QuantType::q5_0>(const std::uint8_t* block, const block_q8_1* act, int slot) {
  const auto& b = *reinterpret_cast<const block_q5_0*>(block);
  const int sumi = q5_sumi(b.qs, static_cast<std::uint32_t>(load_int_aligned2(b.qh, 0)), act[0], slot);
  return offset_block_dot<QuantType::q5_0>(b, sumi, act[0], 16.0f);
}

template <>
__device__ __forceinline__ float block_dot<QuantType::q5_1>(const std::uint8_t* block, const block_q8_1* act, int slot) {
  const auto& b = *reinterpret_cast<const block_q5_1*>(block);
  const int sumi = q5_sumi(b.qs, static_cast<std::uint32_t>(load_int_aligned2(b.qh, 0)), act[0], slot);
  return min_block_dot<QuantType::q5_1>(b, sumi, act[0]);
}

template <>
__device__ __forceinline__ float block_dot<QuantType::q8_0>(const std::uint8_t* block, const block_q8_1* act, int slot) {
  const auto& b = *reinterpret_cast<const block_q8_0*>(block);
  int sumi = 0;
  for (int j = 0; j < 2; ++j) {
    const int k = 2 * slot + j;
    sumi = dp4a_op(load_int_aligned2(reinterpret_cast<const std::uint8_t*>(b.qs), k), q8_int(act[0], k), sumi);
  }
  return half_to_float(b.d) * half_to_float(act[0].d) * static_cast<float>(sumi);
}

template <>
__device__ __forceinline__ float block_dot<QuantType::iq4_nl>(const std::uint8_t* block, const block_q8_1* act, int slot) {
  const auto& b = *reinterpret_cast<const block_iq4_nl*>(block);
  const int sumi = q4_sumi<true>(b.qs, act[0], slot);
  return half_to_float(b.d) * half_to_float(act[0].d) * static_cast<float>(sumi);
}

// ---- 256-value super-blocks ----

// q2_K / q3_K: 16 lanes per block, slot = 16-value sub-block k (n = k/8, shift pair j = (k%8)/2,
// half = k%2 of the 32 bytes at qs[32n]); its q8_1 block is k/2, ints 4*half..4*half+3.
template <>
__device__ __forceinline__ float block_dot<QuantType::q2_K>(const std::uint8_t* block, const block_q8_1* act, int slot) {
  const auto& b = *reinterpret_cast<const block_q2_K*>(block);
  const int n = slot / 8, j = (slot % 8) / 2, half = slot % 2;
  const block_q8_1& a = act[slot / 2];
  int sumi = 0, sumq = 0;
  for (int m = 0; m < 4; ++m) {
    const int u = q8_int(a, 4 * half + m);
    sumi = dp4a_op((load_int_aligned2(b.qs + 32 * n + 16 * half, m) >> (2 * j)) & 0x03030303, u, sumi);
    sumq = dp4a_op(kOnes, u, sumq);
  }
  const int sc = b.scales[slot];
  return half_to_float(a.d) * (half_to_float(b.d) * static_cast<float>((sc & 15) * sumi) -
                               half_to_float(b.dmin) * static_cast<float>((sc >> 4) * sumq));
}

template <>
__device__ __forceinline__ float block_dot<QuantType::q3_K>(const std::uint8_t* block, const block_q8_1* act, int slot) {
  const auto& b = *reinterpret_cast<const block_q3_K*>(block);
  const int n = slot / 8, j = (slot % 8) / 2, half = slot % 2;
  const block_q8_1& a = act[slot / 2];
  int sumi = 0, sumq = 0;
  for (int m = 0; m < 4; ++m) {
    const int u = q8_int(a, 4 * half + m);
    const int low2 = (load_int_aligned2(b.qs + 32 * n + 16 * half, m) >> (2 * j)) & 0x03030303;
    const int high = (load_int_aligned2(b.hmask + 16 * half, m) >> (4 * n + j)) & 0x01010101;
    sumi = dp4a_op(low2 | (high << 2), u, sumi);  // q + 4, in 0..7
    sumq = dp4a_op(kOnes, u, sumq);
  }
  const int scale = static_cast<int>(decode_scale_q3_K(b.scales, slot)) - 32;
  return half_to_float(b.d) * half_to_float(a.d) * static_cast<float>(scale * (sumi - 4 * sumq));
}

// q4_K (144-byte) and q5_K (176-byte) blocks keep every field at a multiple of 4 bytes from a
// 4-byte aligned block, so their words are single 32-bit loads (half the loads of the
// two-halves path the 2-byte aligned formats need).
__device__ __forceinline__ std::uint32_t load_word_aligned4(const void* p, int i) {
  return reinterpret_cast<const std::uint32_t*>(p)[i];
}
static_assert(sizeof(block_q4_K) % 4 == 0 && offsetof(block_q4_K, scales) % 4 == 0 && offsetof(block_q4_K, qs) % 4 == 0);
static_assert(sizeof(block_q5_K) % 4 == 0 && offsetof(block_q5_K, scales) % 4 == 0 && offsetof(block_q5_K, qh) % 4 == 0 &&
              offsetof(block_q5_K, qs) % 4 == 0);

// The 6-bit (scale, min) of sub-blocks 2c and 2c+1 of a q4_K / q5_K block, from its 12 scale bytes
// read as three words and decoded four sub-blocks at a time (the layout of decode_scale_min_k4):
// a select on c instead of a branch, because the lanes of a warp hold every c.
struct K4ScalesMins {
  int scale_low, min_low, scale_high, min_high;
};
__device__ __forceinline__ K4ScalesMins k4_scales_mins(const std::uint8_t* scales, int c) {
  const std::uint32_t s0 = load_word_aligned4(scales, 0), s1 = load_word_aligned4(scales, 1),
                      s2 = load_word_aligned4(scales, 2);
  // Sub-blocks 0..3: low 6 bits of bytes 0..3 (scales) and 4..7 (mins). Sub-blocks 4..7: nibbles
  // of bytes 8..11 with the top 2 bits of bytes 0..3 / 4..7 above them.
  const std::uint32_t scales4 = c < 2 ? (s0 & 0x3F3F3F3Fu) : ((s2 & 0x0F0F0F0Fu) | ((s0 >> 2) & 0x30303030u));
  const std::uint32_t mins4 = c < 2 ? (s1 & 0x3F3F3F3Fu) : (((s2 >> 4) & 0x0F0F0F0Fu) | ((s1 >> 2) & 0x30303030u));
  const int shift = 16 * (c & 1);
  return {static_cast<int>((scales4 >> shift) & 0xFFu), static_cast<int>((mins4 >> shift) & 0xFFu),
          static_cast<int>((scales4 >> (shift + 8)) & 0xFFu), static_cast<int>((mins4 >> (shift + 8)) & 0xFFu)};
}

// q4_K / q5_K: 16 lanes per block; slot k takes ints k%4 and k%4 + 4 of 64-value chunk c = k/4
// (so the four lanes of a chunk read 16 consecutive bytes per load): low nibbles belong to
// sub-block 2c (q8_1 block 2c), high nibbles to 2c+1.
template <class Block, bool FifthBit>
__device__ __forceinline__ float k4_block_dot(const Block& b, const std::uint8_t* qh, const block_q8_1* act, int slot) {
  const int c = slot / 4;
  const block_q8_1& a_low = act[2 * c];
  const block_q8_1& a_high = act[2 * c + 1];
  int sumi_low = 0, sumi_high = 0, sumq_low = 0, sumq_high = 0;
  for (int j = 0; j < 2; ++j) {
    const int m = slot % 4 + 4 * j;
    const std::uint32_t v = load_word_aligned4(b.qs + 32 * c, m);
    int low = static_cast<int>(v & 0x0F0F0F0Fu), high = static_cast<int>((v >> 4) & 0x0F0F0F0Fu);
    if constexpr (FifthBit) {
      const std::uint32_t h = load_word_aligned4(qh, m);
      low |= static_cast<int>(((h >> (2 * c)) & 0x01010101u) << 4);
      high |= static_cast<int>(((h >> (2 * c + 1)) & 0x01010101u) << 4);
    }
    const int u_low = q8_int(a_low, m), u_high = q8_int(a_high, m);
    sumi_low = dp4a_op(low, u_low, sumi_low);
    sumi_high = dp4a_op(high, u_high, sumi_high);
    sumq_low = dp4a_op(kOnes, u_low, sumq_low);
    sumq_high = dp4a_op(kOnes, u_high, sumq_high);
  }
  const K4ScalesMins sm = k4_scales_mins(b.scales, c);
  const std::uint32_t dm = load_word_aligned4(&b.d, 0);  // d, then dmin
  const float d = half_to_float(static_cast<std::uint16_t>(dm & 0xFFFFu));
  const float dmin = half_to_float(static_cast<std::uint16_t>(dm >> 16));
  return half_to_float(a_low.d) * (d * static_cast<float>(sm.scale_low * sumi_low) -
                                   dmin * static_cast<float>(sm.min_low * sumq_low)) +
         half_to_float(a_high.d) * (d * static_cast<float>(sm.scale_high * sumi_high) -
                                    dmin * static_cast<float>(sm.min_high * sumq_high));
}

template <>
__device__ __forceinline__ float block_dot<QuantType::q4_K>(const std::uint8_t* block, const block_q8_1* act, int slot) {
  const auto& b = *reinterpret_cast<const block_q4_K*>(block);
  return k4_block_dot<block_q4_K, false>(b, nullptr, act, slot);
}

template <>
__device__ __forceinline__ float block_dot<QuantType::q5_K>(const std::uint8_t* block, const block_q8_1* act, int slot) {
  const auto& b = *reinterpret_cast<const block_q5_K*>(block);
  return k4_block_dot<block_q5_K, true>(b, b.qh, act, slot);
}

// q6_K: 32 lanes per block; slot k: half n = k/16, quarter q = (k%16)/4, 8 values at
// l = 8*(k%4); q8_1 block 4n + q, ints 2*(k%4), +1.
template <>
__device__ __forceinline__ float block_dot<QuantType::q6_K>(const std::uint8_t* block, const block_q8_1* act, int slot) {
  const auto& b = *reinterpret_cast<const block_q6_K*>(block);
  const int n = slot / 16, quarter = (slot % 16) / 4;
  const block_q8_1& a = act[4 * n + quarter];
  int sumi = 0, sumq = 0;
  for (int j = 0; j < 2; ++j) {
    const int m = 2 * (slot % 4) + j;
    const int l4 = load_int_aligned2(b.ql + 64 * n + 32 * (quarter & 1), m);
    const int low4 = quarter < 2 ? (l4 & 0x0F0F0F0F) : ((l4 >> 4) & 0x0F0F0F0F);
    const int high2 = (load_int_aligned2(b.qh + 32 * n, m) >> (2 * quarter)) & 0x03030303;
    const int u = q8_int(a, m);
    sumi = dp4a_op(low4 | (high2 << 4), u, sumi);  // q + 32, in 0..63
    sumq = dp4a_op(kOnes, u, sumq);
  }
  const int scale = b.scales[8 * n + (slot % 4) / 2 + 2 * quarter];
  return half_to_float(b.d) * half_to_float(a.d) * static_cast<float>(scale * (sumi - 32 * sumq));
}

// iq4_xs: 8 lanes per block, slot = 32-value sub-block ib (its q8_1 block).
template <>
__device__ __forceinline__ float block_dot<QuantType::iq4_xs>(const std::uint8_t* block, const block_q8_1* act, int slot) {
  const auto& b = *reinterpret_cast<const block_iq4_xs*>(block);
  const block_q8_1& a = act[slot];
  int sumi = 0;
  for (int j = 0; j < 4; ++j) {
    const int v = load_int_aligned2(b.qs + 16 * slot, j);
    sumi = dp4a_op(iq4_lookup4(v & 0x0F0F0F0F), q8_int(a, j), sumi);
    sumi = dp4a_op(iq4_lookup4((v >> 4) & 0x0F0F0F0F), q8_int(a, j + 4), sumi);
  }
  const int scale = static_cast<int>(decode_scale_iq4_xs(b.scales_h, b.scales_l, slot)) - 32;
  return half_to_float(b.d) * half_to_float(a.d) * static_cast<float>(scale * sumi);
}

}  // namespace gridfuzz::gguf::device_code

#if GRIDFUZZ_GGUF_IQ
#include "codebook_dot.cuh"
#endif
