// Legacy 32-value formats. Symmetric ones (q4_0, q5_0) map the input of largest magnitude exactly
// to the grid end -2^(b-1) (as ggml does, so an outlier is kept); the affine ones (q4_1, q5_1) span
// [min, max]; q8_0 is symmetric over [-amax, amax] with 127 steps each side.

#include "quantize_support.hpp"

namespace gridfuzz::formats::gguf::detail {
namespace {

// Symmetric 4/5-bit: q in [0, 2^bits), value (q - 2^(bits-1)) * d.
template <int Bits>
HalfScale symmetric_quants(const float* x, int* q) {
  constexpr int bias = 1 << (Bits - 1);
  const HalfScale d = half_scale_away(signed_extreme(x, 32) / -bias);
  for (int j = 0; j < 32; ++j) {
    q[j] = d.value == 0 ? bias : nearest_in(x[j] / d.value, -bias, bias - 1) + bias;
  }
  return d;
}

// Affine 4/5-bit: q in [0, 2^bits), value q * d + m with m = min.
template <int Bits>
void affine_quants(const float* x, int* q, HalfScale& d, HalfScale& m) {
  constexpr int top = (1 << Bits) - 1;
  const Range r = min_max(x, 32);
  d = half_scale_away((r.hi - r.lo) / top);
  m = half_scale_nearest(r.lo);
  for (int j = 0; j < 32; ++j) q[j] = d.value == 0 ? 0 : nearest_in((x[j] - m.value) / d.value, 0, top);
}

void pack_nibbles(const int* q, std::uint8_t* qs) {
  for (int j = 0; j < 16; ++j) qs[j] = static_cast<std::uint8_t>((q[j] & 15) | (q[j + 16] & 15) << 4);
}

void pack_fifth_bits(const int* q, std::uint8_t* qh) {
  std::uint32_t bits = 0;
  for (int j = 0; j < 32; ++j) bits |= static_cast<std::uint32_t>((q[j] >> 4) & 1) << j;
  for (int k = 0; k < 4; ++k) qh[k] = static_cast<std::uint8_t>(bits >> (8 * k));
}

// The quants' low four bits as nibbles, and for 5-bit blocks their fifth bits.
template <int Bits, class Block>
void pack_quants(const int* q, Block& out) {
  pack_nibbles(q, out.qs);
  if constexpr (Bits == 5) pack_fifth_bits(q, out.qh);
}

// q4_0 / q5_0: symmetric quants under d.
template <int Bits, class Block>
void quantize_symmetric(const float* x, Block& out) {
  int q[32];
  out.d = symmetric_quants<Bits>(x, q).bits;
  pack_quants<Bits>(q, out);
}

// q4_1 / q5_1: quants under d above the offset m.
template <int Bits, class Block>
void quantize_affine(const float* x, Block& out) {
  int q[32];
  HalfScale d{}, m{};
  affine_quants<Bits>(x, q, d, m);
  out.d = d.bits;
  out.m = m.bits;
  pack_quants<Bits>(q, out);
}

}  // namespace

void quantize_block(const float* x, block_q4_0& out) { quantize_symmetric<4>(x, out); }
void quantize_block(const float* x, block_q5_0& out) { quantize_symmetric<5>(x, out); }
void quantize_block(const float* x, block_q4_1& out) { quantize_affine<4>(x, out); }
void quantize_block(const float* x, block_q5_1& out) { quantize_affine<5>(x, out); }

void quantize_block(const float* x, block_q8_0& out) {
  double amax = 0;
  for (int j = 0; j < 32; ++j) amax = std::fmax(amax, std::fabs(static_cast<double>(x[j])));
  const HalfScale d = half_scale_away(amax / 127);
  out.d = d.bits;
  for (int j = 0; j < 32; ++j) {
    out.qs[j] = static_cast<std::int8_t>(d.value == 0 ? 0 : nearest_in(x[j] / d.value, -127, 127));
  }
}

}  // namespace gridfuzz::formats::gguf::detail
