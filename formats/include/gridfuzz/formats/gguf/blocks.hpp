#pragma once
// GGUF block layouts as plain structs, field order and byte sizes as in ggml's ggml-common.h
// (docs/KERNELS.md, "GGUF block layouts"). fp16 fields are stored as uint16_t bit patterns (see
// fp16.hpp); multi-byte fields are little-endian, as on x86-64 and every CUDA device. No padding is
// needed: every struct has alignment 2 (q8_1: 4, matching ggml's half2 and the int32 rows vLLM
// allocates), and the static_asserts below pin the sizes, so an array of blocks has exactly ggml's
// byte stride.
#include <cstddef>
#include <cstdint>

#include "gridfuzz/formats/host_device.hpp"
#include "gridfuzz/formats/gguf/quant_type.hpp"

namespace gridfuzz::formats::gguf {

// --- legacy 32-value blocks; nibble order: byte j low = element j, high = element j+16 ---

struct block_q4_0 {
  std::uint16_t d;       // half scale
  std::uint8_t qs[16];   // x = (q - 8) * d
};

struct block_q4_1 {
  std::uint16_t d;       // half scale
  std::uint16_t m;       // half offset: x = q * d + m
  std::uint8_t qs[16];
};

struct block_q5_0 {
  std::uint16_t d;
  std::uint8_t qh[4];    // 5th bits, little-endian uint32: bit j belongs to element j
  std::uint8_t qs[16];   // x = ((nibble | bit << 4) - 16) * d
};

struct block_q5_1 {
  std::uint16_t d;
  std::uint16_t m;
  std::uint8_t qh[4];
  std::uint8_t qs[16];   // x = (nibble | bit << 4) * d + m
};

struct block_q8_0 {
  std::uint16_t d;
  std::int8_t qs[32];    // x = q * d
};

// Activation block: s = half of the sum of the ORIGINAL floats of the block (not d * sum(q)).
struct alignas(4) block_q8_1 {
  std::uint16_t d;
  std::uint16_t s;
  std::int8_t qs[32];
};

// --- K-quants: 256-value super-blocks ---

struct block_q2_K {
  std::uint8_t scales[16];  // per 16 values: low nibble scale, high nibble min
  std::uint8_t qs[64];      // 2-bit quants
  std::uint16_t d;          // half super-scale for the scales
  std::uint16_t dmin;       // half super-scale for the mins
};

struct block_q3_K {
  std::uint8_t hmask[32];   // high bit of each 3-bit quant (set: no -4)
  std::uint8_t qs[64];      // low 2 bits
  std::uint8_t scales[12];  // 16 x 6-bit scales, biased by 32
  std::uint16_t d;
};

struct block_q4_K {
  std::uint16_t d;
  std::uint16_t dmin;
  std::uint8_t scales[12];  // 8 x 6-bit scale + 8 x 6-bit min
  std::uint8_t qs[128];
};

struct block_q5_K {
  std::uint16_t d;
  std::uint16_t dmin;
  std::uint8_t scales[12];
  std::uint8_t qh[32];      // 5th bits
  std::uint8_t qs[128];
};

struct block_q6_K {
  std::uint8_t ql[128];     // low 4 bits
  std::uint8_t qh[64];      // high 2 bits
  std::int8_t scales[16];   // signed 8-bit scale per 16 values
  std::uint16_t d;
};

// --- non-linear 4-bit (value table kIq4NlValues) ---

struct block_iq4_nl {
  std::uint16_t d;
  std::uint8_t qs[16];      // table indices, q4_0 nibble order
};

struct block_iq4_xs {
  std::uint16_t d;
  std::uint16_t scales_h;   // high 2 bits of the eight 6-bit sub-block scales
  std::uint8_t scales_l[4]; // low 4 bits, two per byte
  std::uint8_t qs[128];     // table indices, q4_0 nibble order within each 32-value sub-block
};

// --- codebook i-quants: 256-value super-blocks of 32-value sub-blocks (ib32), each made of
// 8-value (iq2, iq1) or 4-value (iq3) groups that index a codebook (formats/gguf/iq_grids.hpp in
// gridfuzz's sources). Layouts as in the pinned upstream ggml-common.h (vllm-gguf-plugin 0.0.5,
// lines 107-168); what each bit means is in formats/gguf/dequantize_codebook.cpp. ---

struct block_iq2_xxs {
  std::uint16_t d;
  std::uint16_t qs[32];     // per ib32 four 16-bit words: bytes 0-3 grid indices, bytes 4-7 (LE
                            // uint32) four 7-bit ksigns indices + a 4-bit scale in bits 28-31
};

struct block_iq2_xs {
  std::uint16_t d;
  std::uint16_t qs[32];     // per 8 values: 9-bit grid index | 7-bit ksigns index << 9
  std::uint8_t scales[8];   // per ib32: low nibble values 0-15, high nibble values 16-31
};

struct block_iq2_s {
  std::uint16_t d;
  std::uint8_t qs[64];      // qs[0..31]: low 8 bits of the 10-bit grid indices; qs[32..63]: 8 sign bits per 8 values
  std::uint8_t qh[8];       // per ib32: bits 2l..2l+1 are index bits 8-9 of group l
  std::uint8_t scales[8];   // as iq2_xs
};

struct block_iq3_xxs {
  std::uint16_t d;
  std::uint8_t qs[96];      // qs[0..63]: 8-bit grid indices of 4-value groups; qs[64..95]: per ib32 a LE
                            // uint32 of four 7-bit ksigns indices + a 4-bit scale in bits 28-31
};

struct block_iq3_s {
  std::uint16_t d;
  std::uint8_t qs[64];      // low 8 bits of the 9-bit grid indices of 4-value groups
  std::uint8_t qh[8];       // per ib32: bit k is index bit 8 of group k
  std::uint8_t signs[32];   // 8 sign bits per 8 values
  std::uint8_t scales[4];   // 4-bit scale per ib32, two per byte (low nibble: even ib32)
};

struct block_iq1_s {
  std::uint16_t d;
  std::uint8_t qs[32];      // low 8 bits of the 11-bit grid indices of 8-value groups
  std::uint16_t qh[8];      // per ib32: bits 3l..3l+2 index bits 8-10 of group l, bits 12-14 scale,
                            // bit 15 the sign of the delta
};

struct block_iq1_m {
  std::uint8_t qs[32];      // low 8 bits of the 11-bit grid indices
  std::uint8_t qh[16];      // per 16 values, one nibble per 8-value group: index bits 8-10, bit 3 delta sign
  std::uint8_t scales[8];   // four LE uint16: 3-bit scales per 16 values in bits 0-11, and the half
                            // super-scale spread over bits 12-15 of the four words
};

// The 16 values a 4-bit iq4 index selects (ggml `kvalues_iq4nl`,
// docs/KERNELS.md, "GGUF dequantization"). A function with a local table rather than a
// namespace-scope array, so device code can call it too.
GRIDFUZZ_FORMATS_HD constexpr int iq4nl_value(unsigned index) {
  constexpr signed char values[16] = {-127, -104, -83, -65, -49, -35, -22, -10,
                                      1,    13,   25,  38,  53,  69,  89,  113};
  return values[index & 15u];
}

static_assert(sizeof(block_q4_0) == 18);
static_assert(sizeof(block_q4_1) == 20);
static_assert(sizeof(block_q5_0) == 22);
static_assert(sizeof(block_q5_1) == 24);
static_assert(sizeof(block_q8_0) == 34);
static_assert(sizeof(block_q8_1) == 36);
static_assert(sizeof(block_q2_K) == 84);
static_assert(sizeof(block_q3_K) == 110);
static_assert(sizeof(block_q4_K) == 144);
static_assert(sizeof(block_q5_K) == 176);
static_assert(sizeof(block_q6_K) == 210);
static_assert(sizeof(block_iq4_nl) == 18);
static_assert(sizeof(block_iq4_xs) == 136);
static_assert(sizeof(block_iq2_xxs) == 66);
static_assert(sizeof(block_iq2_xs) == 74);
static_assert(sizeof(block_iq2_s) == 82);
static_assert(sizeof(block_iq3_xxs) == 98);
static_assert(sizeof(block_iq3_s) == 110);
static_assert(sizeof(block_iq1_s) == 50);
static_assert(sizeof(block_iq1_m) == 56);

// Block struct of a type, for templated code: BlockOf<QuantType::q4_K> is block_q4_K.
template <QuantType T> struct BlockOfT;
template <> struct BlockOfT<QuantType::q4_0> { using type = block_q4_0; };
template <> struct BlockOfT<QuantType::q4_1> { using type = block_q4_1; };
template <> struct BlockOfT<QuantType::q5_0> { using type = block_q5_0; };
template <> struct BlockOfT<QuantType::q5_1> { using type = block_q5_1; };
template <> struct BlockOfT<QuantType::q8_0> { using type = block_q8_0; };
template <> struct BlockOfT<QuantType::q8_1> { using type = block_q8_1; };
template <> struct BlockOfT<QuantType::q2_K> { using type = block_q2_K; };
template <> struct BlockOfT<QuantType::q3_K> { using type = block_q3_K; };
template <> struct BlockOfT<QuantType::q4_K> { using type = block_q4_K; };
template <> struct BlockOfT<QuantType::q5_K> { using type = block_q5_K; };
template <> struct BlockOfT<QuantType::q6_K> { using type = block_q6_K; };
template <> struct BlockOfT<QuantType::iq4_nl> { using type = block_iq4_nl; };
template <> struct BlockOfT<QuantType::iq4_xs> { using type = block_iq4_xs; };
template <> struct BlockOfT<QuantType::iq2_xxs> { using type = block_iq2_xxs; };
template <> struct BlockOfT<QuantType::iq2_xs> { using type = block_iq2_xs; };
template <> struct BlockOfT<QuantType::iq2_s> { using type = block_iq2_s; };
template <> struct BlockOfT<QuantType::iq3_xxs> { using type = block_iq3_xxs; };
template <> struct BlockOfT<QuantType::iq3_s> { using type = block_iq3_s; };
template <> struct BlockOfT<QuantType::iq1_s> { using type = block_iq1_s; };
template <> struct BlockOfT<QuantType::iq1_m> { using type = block_iq1_m; };
template <QuantType T> using BlockOf = typename BlockOfT<T>::type;

// The traits table and the structs must agree.
namespace detail {
template <QuantType T> constexpr bool block_matches_traits() {
  return sizeof(BlockOf<T>) == quant_traits(T).block_bytes;
}
}  // namespace detail
static_assert(detail::block_matches_traits<QuantType::q4_0>() && detail::block_matches_traits<QuantType::q4_1>() &&
              detail::block_matches_traits<QuantType::q5_0>() && detail::block_matches_traits<QuantType::q5_1>() &&
              detail::block_matches_traits<QuantType::q8_0>() && detail::block_matches_traits<QuantType::q8_1>() &&
              detail::block_matches_traits<QuantType::q2_K>() && detail::block_matches_traits<QuantType::q3_K>() &&
              detail::block_matches_traits<QuantType::q4_K>() && detail::block_matches_traits<QuantType::q5_K>() &&
              detail::block_matches_traits<QuantType::q6_K>() && detail::block_matches_traits<QuantType::iq4_nl>() &&
              detail::block_matches_traits<QuantType::iq4_xs>() && detail::block_matches_traits<QuantType::iq2_xxs>() &&
              detail::block_matches_traits<QuantType::iq2_xs>() && detail::block_matches_traits<QuantType::iq2_s>() &&
              detail::block_matches_traits<QuantType::iq3_xxs>() && detail::block_matches_traits<QuantType::iq3_s>() &&
              detail::block_matches_traits<QuantType::iq1_s>() && detail::block_matches_traits<QuantType::iq1_m>());

}  // namespace gridfuzz::formats::gguf
