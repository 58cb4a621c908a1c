#pragma once
// Packing of the 6-bit sub-block scales of q3_K, q4_K/q5_K and iq4_xs
// (docs/KERNELS.md, "GGUF dequantization"), both directions. Decoders are what the dequantizers and
// the CUDA dot products read; encoders are their exact inverses, used by the quantizers (and proven
// inverse by exhaustive tests).
#include <cstdint>

#include "gridfuzz/formats/host_device.hpp"

namespace gridfuzz::formats::gguf {

struct ScaleMin {
  std::uint8_t scale;  // 0..63
  std::uint8_t min;    // 0..63
};

// q4_K / q5_K: 8 sub-blocks, each a 6-bit scale and a 6-bit min, in 12 bytes. Sub-blocks 0..3
// keep their values in the low 6 bits of bytes 0..3 (scale) and 4..7 (min); sub-blocks 4..7 keep
// their low 4 bits in the nibbles of bytes 8..11 and their top 2 bits in the spare top bits of
// bytes 0..7.
GRIDFUZZ_FORMATS_HD constexpr ScaleMin decode_scale_min_k4(const std::uint8_t* scales, int sub) {
  if (sub < 4) {
    return {static_cast<std::uint8_t>(scales[sub] & 63), static_cast<std::uint8_t>(scales[sub + 4] & 63)};
  }
  const auto scale = static_cast<std::uint8_t>((scales[sub + 4] & 15) | ((scales[sub - 4] >> 6) << 4));
  const auto min = static_cast<std::uint8_t>((scales[sub + 4] >> 4) | ((scales[sub] >> 6) << 4));
  return {scale, min};
}

// Inverse of decode_scale_min_k4 for all 8 sub-blocks at once (values taken mod 64).
GRIDFUZZ_FORMATS_HD constexpr void encode_scale_min_k4(const ScaleMin* values, std::uint8_t* scales) {
  for (int j = 0; j < 4; ++j) {
    const unsigned sc_hi = (values[j + 4].scale >> 4) & 3u;
    const unsigned mn_hi = (values[j + 4].min >> 4) & 3u;
    scales[j] = static_cast<std::uint8_t>((values[j].scale & 63u) | (sc_hi << 6));
    scales[j + 4] = static_cast<std::uint8_t>((values[j].min & 63u) | (mn_hi << 6));
  }
  for (int j = 4; j < 8; ++j) {
    scales[j + 4] = static_cast<std::uint8_t>((values[j].scale & 15u) | ((values[j].min & 15u) << 4));
  }
}

// q3_K: 16 sub-blocks, 6-bit values (biased by 32) in 12 bytes. Low 4 bits: nibbles of bytes
// 0..7 (low nibble: sub 0..7, high nibble: sub 8..15). High 2 bits: bytes 8..11, byte 8 + sub%4,
// bit pair sub/4.
GRIDFUZZ_FORMATS_HD constexpr std::uint8_t decode_scale_q3_K(const std::uint8_t* scales, int sub) {
  const unsigned low = sub < 8 ? (scales[sub] & 15u) : (scales[sub - 8] >> 4);
  const unsigned high = (scales[8 + sub % 4] >> (2 * (sub / 4))) & 3u;
  return static_cast<std::uint8_t>(low | (high << 4));
}

GRIDFUZZ_FORMATS_HD constexpr void encode_scales_q3_K(const std::uint8_t* values, std::uint8_t* scales) {
  for (int j = 0; j < 8; ++j) {
    scales[j] = static_cast<std::uint8_t>((values[j] & 15u) | ((values[j + 8] & 15u) << 4));
  }
  for (int k = 0; k < 4; ++k) {
    unsigned byte = 0;
    for (int g = 0; g < 4; ++g) byte |= ((values[4 * g + k] >> 4) & 3u) << (2 * g);
    scales[8 + k] = static_cast<std::uint8_t>(byte);
  }
}

// iq4_xs: 8 sub-blocks of 32, 6-bit value (biased by 32): low 4 bits in the nibbles of scales_l
// (sub ib in byte ib/2, nibble ib%2), high 2 bits at bit pair ib of scales_h.
GRIDFUZZ_FORMATS_HD constexpr std::uint8_t decode_scale_iq4_xs(std::uint16_t scales_h, const std::uint8_t* scales_l,
                                                          int ib) {
  const unsigned low = (scales_l[ib / 2] >> (4 * (ib % 2))) & 15u;
  const unsigned high = (static_cast<unsigned>(scales_h) >> (2 * ib)) & 3u;
  return static_cast<std::uint8_t>(low | (high << 4));
}

GRIDFUZZ_FORMATS_HD constexpr void encode_scales_iq4_xs(const std::uint8_t* values, std::uint16_t& scales_h,
                                                   std::uint8_t* scales_l) {
  unsigned high = 0;
  for (int ib = 0; ib < 8; ++ib) high |= ((values[ib] >> 4) & 3u) << (2 * ib);
  scales_h = static_cast<std::uint16_t>(high);
  for (int k = 0; k < 4; ++k) {
    scales_l[k] = static_cast<std::uint8_t>((values[2 * k] & 15u) | ((values[2 * k + 1] & 15u) << 4));
  }
}

}  // namespace gridfuzz::formats::gguf
