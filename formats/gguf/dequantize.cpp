// Dequantization per docs/KERNELS.md, "GGUF dequantization", computed in float64 (exact for every
// format here: each value is a half times integers, at most 25 significant bits). The float
// overload rounds once.
#include "gridfuzz/formats/gguf/dequantize.hpp"

#include <bit>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "gridfuzz/formats/gguf/blocks.hpp"
#include "gridfuzz/formats/gguf/fp16.hpp"
#include "gridfuzz/formats/gguf/scale_packing.hpp"
#include "codebook_blocks.hpp"

namespace gridfuzz::formats::gguf {
namespace {

static_assert(std::endian::native == std::endian::little, "block fields are little-endian");

double half(std::uint16_t bits) { return static_cast<double>(half_bits_to_float(bits)); }

int low_nibble(std::uint8_t b) { return b & 15; }
int high_nibble(std::uint8_t b) { return b >> 4; }

std::uint32_t load_le32(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
         static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}

void block_q4_0_values(const block_q4_0& b, double* y) {
  const double d = half(b.d);
  for (int j = 0; j < 16; ++j) {
    y[j] = (low_nibble(b.qs[j]) - 8) * d;
    y[j + 16] = (high_nibble(b.qs[j]) - 8) * d;
  }
}

void block_q4_1_values(const block_q4_1& b, double* y) {
  const double d = half(b.d);
  const double m = half(b.m);
  for (int j = 0; j < 16; ++j) {
    y[j] = low_nibble(b.qs[j]) * d + m;
    y[j + 16] = high_nibble(b.qs[j]) * d + m;
  }
}

// 5-bit quant of element j of a q5 block: nibble plus bit j of the little-endian qh word.
int q5_value(const std::uint8_t* qs, std::uint32_t qh, int j) {
  const int nibble = j < 16 ? low_nibble(qs[j]) : high_nibble(qs[j - 16]);
  return nibble | static_cast<int>((qh >> j) & 1u) << 4;
}

void block_q5_0_values(const block_q5_0& b, double* y) {
  const double d = half(b.d);
  const std::uint32_t qh = load_le32(b.qh);
  for (int j = 0; j < 32; ++j) y[j] = (q5_value(b.qs, qh, j) - 16) * d;
}

void block_q5_1_values(const block_q5_1& b, double* y) {
  const double d = half(b.d);
  const double m = half(b.m);
  const std::uint32_t qh = load_le32(b.qh);
  for (int j = 0; j < 32; ++j) y[j] = q5_value(b.qs, qh, j) * d + m;
}

void block_q8_0_values(const block_q8_0& b, double* y) {
  const double d = half(b.d);
  for (int j = 0; j < 32; ++j) y[j] = b.qs[j] * d;
}

void block_q8_1_values(const block_q8_1& b, double* y) {
  const double d = half(b.d);
  for (int j = 0; j < 32; ++j) y[j] = b.qs[j] * d;
}

void block_q2_K_values(const block_q2_K& b, double* y) {
  const double d = half(b.d);
  const double dmin = half(b.dmin);
  for (int e = 0; e < kQK_K; ++e) {
    const int n = e / 128, j = (e % 128) / 32, l = e % 32;
    const int sub = e / 16;  // = 8n + 2j + (l >= 16)
    const int q = (b.qs[32 * n + l] >> (2 * j)) & 3;
    const int sc = b.scales[sub];
    y[e] = d * (sc & 15) * q - dmin * (sc >> 4);
  }
}

void block_q3_K_values(const block_q3_K& b, double* y) {
  const double d = half(b.d);
  for (int e = 0; e < kQK_K; ++e) {
    const int n = e / 128, j = (e % 128) / 32, l = e % 32;
    const int sub = e / 16;
    const int low2 = (b.qs[32 * n + l] >> (2 * j)) & 3;
    const bool high = (b.hmask[l] >> (4 * n + j)) & 1;
    const int q = low2 - (high ? 0 : 4);
    y[e] = d * (decode_scale_q3_K(b.scales, sub) - 32) * q;
  }
}

// q4_K and q5_K share the chunk layout: 64-value chunk c holds sub-blocks 2c (low nibbles of
// qs[32c..32c+31]) and 2c+1 (high nibbles).
template <class Block>
int k4_nibble(const Block& b, int e) {
  const int c = e / 64, l = e % 32;
  const std::uint8_t byte = b.qs[32 * c + l];
  return (e % 64) < 32 ? low_nibble(byte) : high_nibble(byte);
}

void block_q4_K_values(const block_q4_K& b, double* y) {
  const double d = half(b.d);
  const double dmin = half(b.dmin);
  for (int e = 0; e < kQK_K; ++e) {
    const ScaleMin sm = decode_scale_min_k4(b.scales, e / 32);
    y[e] = d * sm.scale * k4_nibble(b, e) - dmin * sm.min;
  }
}

void block_q5_K_values(const block_q5_K& b, double* y) {
  const double d = half(b.d);
  const double dmin = half(b.dmin);
  for (int e = 0; e < kQK_K; ++e) {
    const int sub = e / 32;  // its 5th bit is bit `sub` of qh[e % 32]
    const ScaleMin sm = decode_scale_min_k4(b.scales, sub);
    const int q = k4_nibble(b, e) | ((b.qh[e % 32] >> sub) & 1) << 4;
    y[e] = d * sm.scale * q - dmin * sm.min;
  }
}

void block_q6_K_values(const block_q6_K& b, double* y) {
  const double d = half(b.d);
  for (int e = 0; e < kQK_K; ++e) {
    const int n = e / 128, r = e % 128, quarter = r / 32, l = r % 32;
    const std::uint8_t low_byte = b.ql[64 * n + 32 * (quarter & 1) + l];
    const int low4 = quarter < 2 ? low_nibble(low_byte) : high_nibble(low_byte);
    const int high2 = (b.qh[32 * n + l] >> (2 * quarter)) & 3;
    const int q = (low4 | high2 << 4) - 32;
    y[e] = d * b.scales[8 * n + l / 16 + 2 * quarter] * q;
  }
}

void block_iq4_nl_values(const block_iq4_nl& b, double* y) {
  const double d = half(b.d);
  for (int j = 0; j < 16; ++j) {
    y[j] = d * iq4nl_value(low_nibble(b.qs[j]));
    y[j + 16] = d * iq4nl_value(high_nibble(b.qs[j]));
  }
}

void block_iq4_xs_values(const block_iq4_xs& b, double* y) {
  const double d = half(b.d);
  for (int ib = 0; ib < 8; ++ib) {
    const double dl = d * (decode_scale_iq4_xs(b.scales_h, b.scales_l, ib) - 32);
    const std::uint8_t* qs = b.qs + 16 * ib;
    for (int j = 0; j < 16; ++j) {
      y[32 * ib + j] = dl * iq4nl_value(low_nibble(qs[j]));
      y[32 * ib + j + 16] = dl * iq4nl_value(high_nibble(qs[j]));
    }
  }
}

template <class Block>
void row_values(void (*block_values)(const Block&, double*), const void* blocks, double* out, std::size_t n,
                std::size_t qk) {
  const auto* b = static_cast<const Block*>(blocks);
  for (std::size_t i = 0; i < n / qk; ++i) block_values(b[i], out + i * qk);
}

}  // namespace

void check_row_length(QuantType t, std::size_t n, const char* who) {
  const std::size_t qk = quant_traits(t).qk;
  if (qk == 0) throw std::invalid_argument(std::string(who) + ": unknown quant type");
  if (n % qk != 0) {
    throw std::invalid_argument(std::string(who) + ": " + std::to_string(n) + " values is not a multiple of " +
                                quant_traits(t).name + "'s block size " + std::to_string(qk));
  }
}

void dequantize_row(QuantType t, const void* blocks, double* out, std::size_t n) {
  check_row_length(t, n, "dequantize_row");
  const std::size_t qk = quant_traits(t).qk;
  switch (t) {
    case QuantType::q4_0: return row_values(block_q4_0_values, blocks, out, n, qk);
    case QuantType::q4_1: return row_values(block_q4_1_values, blocks, out, n, qk);
    case QuantType::q5_0: return row_values(block_q5_0_values, blocks, out, n, qk);
    case QuantType::q5_1: return row_values(block_q5_1_values, blocks, out, n, qk);
    case QuantType::q8_0: return row_values(block_q8_0_values, blocks, out, n, qk);
    case QuantType::q8_1: return row_values(block_q8_1_values, blocks, out, n, qk);
    case QuantType::q2_K: return row_values(block_q2_K_values, blocks, out, n, qk);
    case QuantType::q3_K: return row_values(block_q3_K_values, blocks, out, n, qk);
    case QuantType::q4_K: return row_values(block_q4_K_values, blocks, out, n, qk);
    case QuantType::q5_K: return row_values(block_q5_K_values, blocks, out, n, qk);
    case QuantType::q6_K: return row_values(block_q6_K_values, blocks, out, n, qk);
    case QuantType::iq4_nl: return row_values(block_iq4_nl_values, blocks, out, n, qk);
    case QuantType::iq4_xs: return row_values(block_iq4_xs_values, blocks, out, n, qk);
    default: break;
  }
#if GRIDFUZZ_GGUF_IQ
  if (is_codebook_type(t)) {
    const std::size_t bytes = quant_traits(t).block_bytes;
    const auto* p = static_cast<const std::uint8_t*>(blocks);
    for (std::size_t i = 0; i < n / qk; ++i) detail::dequantize_codebook_block(t, p + i * bytes, out + i * qk);
    return;
  }
#endif
  throw std::invalid_argument(std::string("dequantize_row: ") + quant_traits(t).name +
                              " is not built (its codebooks were not generated at configure time)");
}

void dequantize_row(QuantType t, const void* blocks, float* out, std::size_t n) {
  check_row_length(t, n, "dequantize_row");
  // Block by block through a small double buffer: no row-sized temporary.
  const std::size_t qk = quant_traits(t).qk;
  const std::size_t bytes = quant_traits(t).block_bytes;
  double values[kQK_K];
  const auto* p = static_cast<const std::uint8_t*>(blocks);
  for (std::size_t i = 0; i < n / qk; ++i) {
    dequantize_row(t, p + i * bytes, values, qk);
    for (std::size_t j = 0; j < qk; ++j) out[i * qk + j] = static_cast<float>(values[j]);
  }
}

}  // namespace gridfuzz::formats::gguf
