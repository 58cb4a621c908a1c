// Dequantization of the codebook i-quants, in float64 (exact: a half times small integers and
// halves). Bit meanings per the pinned upstream layouts (blocks.hpp); every value is
//   iq2_*:   d * (0.5 + ls) / 4 * g * sign      g in {8, 25, 43}, ls a 4-bit scale
//   iq3_*:   d * (0.5 + ls) / 2 * g * sign      g in {4, 12, ..., 62}
//   iq1_*:   d * (2 ls + 1) * (g + delta)       g in {-1, 0, 1}, ls 3 bits, delta = +-1/8
#include "codebook_blocks.hpp"

#if GRIDFUZZ_GGUF_IQ
#include <cstring>

#include "gridfuzz/formats/gguf/blocks.hpp"
#include "gridfuzz/formats/gguf/fp16.hpp"
#include "iq_grids.hpp"

namespace gridfuzz::formats::gguf::detail {
namespace {

double half(std::uint16_t bits) { return static_cast<double>(half_bits_to_float(bits)); }

std::uint32_t le32(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
         static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}
std::uint16_t le16(const std::uint8_t* p) { return static_cast<std::uint16_t>(p[0] | p[1] << 8); }

double sign(std::uint8_t bits, int j) { return (bits >> j) & 1u ? -1.0 : 1.0; }

void iq2_xxs_values(const block_iq2_xxs& b, double* y) {
  const double d = half(b.d);
  const auto* q = reinterpret_cast<const std::uint8_t*>(b.qs);
  for (int ib = 0; ib < 8; ++ib) {
    const std::uint8_t* g = q + 8 * ib;  // 4 grid indices, then the signs-and-scale word
    const std::uint32_t aux = le32(g + 4);
    const double db = d * (0.5 + (aux >> 28)) * 0.25;
    for (int l = 0; l < 4; ++l) {
      const std::uint8_t s = iq2_signs(aux >> (7 * l));
      for (int j = 0; j < 8; ++j) y[32 * ib + 8 * l + j] = db * iq2_grid_value(iq2xxs_grid_table(), g[l], j) * sign(s, j);
    }
  }
}

void iq2_xs_values(const block_iq2_xs& b, double* y) {
  const double d = half(b.d);
  for (int ib = 0; ib < 8; ++ib) {
    for (int l = 0; l < 4; ++l) {
      const std::uint16_t q = b.qs[4 * ib + l];
      const double db = d * (0.5 + ((b.scales[ib] >> (4 * (l / 2))) & 15)) * 0.25;
      const std::uint8_t s = iq2_signs(q >> 9);
      for (int j = 0; j < 8; ++j) y[32 * ib + 8 * l + j] = db * iq2_grid_value(iq2xs_grid_table(), q & 511u, j) * sign(s, j);
    }
  }
}

void iq2_s_values(const block_iq2_s& b, double* y) {
  const double d = half(b.d);
  for (int ib = 0; ib < 8; ++ib) {
    for (int l = 0; l < 4; ++l) {
      const unsigned index = b.qs[4 * ib + l] | ((b.qh[ib] >> (2 * l)) & 3u) << 8;
      const double db = d * (0.5 + ((b.scales[ib] >> (4 * (l / 2))) & 15)) * 0.25;
      const std::uint8_t s = b.qs[32 + 4 * ib + l];
      for (int j = 0; j < 8; ++j) y[32 * ib + 8 * l + j] = db * iq2_grid_value(iq2s_grid_table(), index, j) * sign(s, j);
    }
  }
}

void iq3_xxs_values(const block_iq3_xxs& b, double* y) {
  const double d = half(b.d);
  for (int ib = 0; ib < 8; ++ib) {
    const std::uint8_t* q3 = b.qs + 8 * ib;
    const std::uint32_t aux = le32(b.qs + 64 + 4 * ib);
    const double db = d * (0.5 + (aux >> 28)) * 0.5;
    for (int l = 0; l < 4; ++l) {
      const std::uint8_t s = iq2_signs(aux >> (7 * l));
      for (int j = 0; j < 4; ++j) {
        y[32 * ib + 8 * l + j] = db * iq3_grid_value(iq3xxs_grid_table(), q3[2 * l], j) * sign(s, j);
        y[32 * ib + 8 * l + 4 + j] = db * iq3_grid_value(iq3xxs_grid_table(), q3[2 * l + 1], j) * sign(s, j + 4);
      }
    }
  }
}

void iq3_s_values(const block_iq3_s& b, double* y) {
  const double d = half(b.d);
  for (int ib = 0; ib < 8; ++ib) {
    const double db = d * (0.5 + ((b.scales[ib / 2] >> (4 * (ib % 2))) & 15)) * 0.5;
    for (int k = 0; k < 8; ++k) {  // 4-value group k of the sub-block
      const unsigned index = b.qs[8 * ib + k] | ((b.qh[ib] >> k) & 1u) << 8;
      const std::uint8_t s = b.signs[4 * ib + k / 2];
      for (int j = 0; j < 4; ++j)
        y[32 * ib + 4 * k + j] = db * iq3_grid_value(iq3s_grid_table(), index, j) * sign(s, 4 * (k % 2) + j);
    }
  }
}

void iq1_s_values(const block_iq1_s& b, double* y) {
  const double d = half(b.d);
  for (int ib = 0; ib < 8; ++ib) {
    const unsigned qh = b.qh[ib];
    const double dl = d * (2 * ((qh >> 12) & 7u) + 1);
    const double delta = qh & 0x8000u ? -0.125 : 0.125;
    for (int l = 0; l < 4; ++l) {
      const unsigned index = b.qs[4 * ib + l] | ((qh >> (3 * l)) & 7u) << 8;
      for (int j = 0; j < 8; ++j) y[32 * ib + 8 * l + j] = dl * (iq1_grid_value(index, j) + delta);
    }
  }
}

}  // namespace

std::uint16_t iq1_m_super_scale_bits(const block_iq1_m& b) {
  const std::uint16_t sc[4] = {le16(b.scales), le16(b.scales + 2), le16(b.scales + 4), le16(b.scales + 6)};
  return static_cast<std::uint16_t>((sc[0] >> 12) | ((sc[1] >> 8) & 0x00F0) | ((sc[2] >> 4) & 0x0F00) | (sc[3] & 0xF000));
}

int iq1_m_scale(const block_iq1_m& b, int ib16) {
  return (le16(b.scales + 2 * (ib16 / 4)) >> (3 * (ib16 % 4))) & 7;
}

namespace {

void iq1_m_values(const block_iq1_m& b, double* y) {
  const double d = half(iq1_m_super_scale_bits(b));
  for (int ib = 0; ib < 8; ++ib) {
    for (int l = 0; l < 4; ++l) {
      const int ib16 = 2 * ib + l / 2;
      const double dl = d * (2 * iq1_m_scale(b, ib16) + 1);
      const unsigned nibble = (b.qh[ib16] >> (4 * (l % 2))) & 15u;
      const double delta = nibble & 8u ? -0.125 : 0.125;
      const unsigned index = b.qs[4 * ib + l] | (nibble & 7u) << 8;
      for (int j = 0; j < 8; ++j) y[32 * ib + 8 * l + j] = dl * (iq1_grid_value(index, j) + delta);
    }
  }
}

template <class Block>
void values_of(const void* block, double* y, void (*f)(const Block&, double*)) {
  Block b;
  std::memcpy(&b, block, sizeof b);
  f(b, y);
}

}  // namespace

bool dequantize_codebook_block(QuantType t, const void* block, double* y) {
  switch (t) {
    case QuantType::iq2_xxs: values_of(block, y, iq2_xxs_values); return true;
    case QuantType::iq2_xs: values_of(block, y, iq2_xs_values); return true;
    case QuantType::iq2_s: values_of(block, y, iq2_s_values); return true;
    case QuantType::iq3_xxs: values_of(block, y, iq3_xxs_values); return true;
    case QuantType::iq3_s: values_of(block, y, iq3_s_values); return true;
    case QuantType::iq1_s: values_of(block, y, iq1_s_values); return true;
    case QuantType::iq1_m: values_of(block, y, iq1_m_values); return true;
    default: return false;
  }
}

}  // namespace gridfuzz::formats::gguf::detail
#endif
