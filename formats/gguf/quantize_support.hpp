#pragma once
// Private helpers shared by the CPU quantizers (not installed, not for CUDA).
#include <cmath>
#include <cstdint>

#include "gridfuzz/formats/gguf/blocks.hpp"
#include "gridfuzz/formats/gguf/fp16.hpp"

namespace gridfuzz::formats::gguf::detail {

// A stored half scale and the exact value the dequantizer will read back.
struct HalfScale {
  std::uint16_t bits;
  double value;
};

// Magnitude rounded up (see quantize.hpp: keeps every input inside its quant grid).
inline HalfScale half_scale_away(double v) {
  const std::uint16_t bits = float_to_half_bits_away_from_zero(static_cast<float>(v));
  return {bits, static_cast<double>(half_bits_to_float(bits))};
}

// Round to nearest: for offsets (q4_1 / q5_1 m), where no grid end depends on the direction.
inline HalfScale half_scale_nearest(double v) {
  const std::uint16_t bits = float_to_half_bits(static_cast<float>(v));
  return {bits, static_cast<double>(half_bits_to_float(bits))};
}

// Nearest integer to v clamped to [lo, hi]; v is small (a quant grid coordinate).
inline int nearest_in(double v, int lo, int hi) {
  const double r = std::nearbyint(v);  // ties to even under the default rounding mode
  return r < lo ? lo : (r > hi ? hi : static_cast<int>(r));
}

// The input of largest magnitude, sign kept (first one on ties), and 0 for an all-zero span.
inline double signed_extreme(const float* x, int n) {
  double best = 0;
  for (int i = 0; i < n; ++i) {
    if (std::fabs(x[i]) > std::fabs(best)) best = x[i];
  }
  return best;
}

struct Range {
  double lo, hi;
};
inline Range min_max(const float* x, int n) {
  Range r{x[0], x[0]};
  for (int i = 1; i < n; ++i) {
    r.lo = std::fmin(r.lo, static_cast<double>(x[i]));
    r.hi = std::fmax(r.hi, static_cast<double>(x[i]));
  }
  return r;
}

// Block quantizers, one per format (quantize_legacy.cpp, quantize_k.cpp, quantize_iq4.cpp,
// quantize_codebook.cpp).
void quantize_block(const float* x, block_q4_0& out);
void quantize_block(const float* x, block_q4_1& out);
void quantize_block(const float* x, block_q5_0& out);
void quantize_block(const float* x, block_q5_1& out);
void quantize_block(const float* x, block_q8_0& out);
void quantize_block(const float* x, block_q2_K& out);
void quantize_block(const float* x, block_q3_K& out);
void quantize_block(const float* x, block_q4_K& out);
void quantize_block(const float* x, block_q5_K& out);
void quantize_block(const float* x, block_q6_K& out);
void quantize_block(const float* x, block_iq4_nl& out);
void quantize_block(const float* x, block_iq4_xs& out);
// quantize_codebook.cpp (only with GRIDFUZZ_GGUF_IQ)
void quantize_block(const float* x, block_iq2_xxs& out);
void quantize_block(const float* x, block_iq2_xs& out);
void quantize_block(const float* x, block_iq2_s& out);
void quantize_block(const float* x, block_iq3_xxs& out);
void quantize_block(const float* x, block_iq3_s& out);
void quantize_block(const float* x, block_iq1_s& out);
void quantize_block(const float* x, block_iq1_m& out);

}  // namespace gridfuzz::formats::gguf::detail
