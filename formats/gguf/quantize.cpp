// Dispatch of the CPU quantizers and the error bound each one guarantees.
#include "gridfuzz/formats/gguf/quantize.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "gridfuzz/formats/gguf/blocks.hpp"
#include "gridfuzz/formats/gguf/dequantize.hpp"
#include "gridfuzz/formats/gguf/quantize_q8_1.hpp"
#include "quantize_support.hpp"

namespace gridfuzz::formats::gguf {
namespace {

void check_weight_inputs(const float* x, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    if (!(std::fabs(x[i]) <= 65504.0f)) {
      throw std::invalid_argument("quantize_row: input " + std::to_string(i) +
                                  " is not finite or beyond the half range (|x| <= 65504)");
    }
  }
}

template <QuantType T>
void quantize_weight_blocks(const float* x, void* blocks, std::size_t n) {
  check_weight_inputs(x, n);
  constexpr std::size_t qk = quant_traits(T).qk;
  auto* out = static_cast<BlockOf<T>*>(blocks);
  for (std::size_t i = 0; i < n / qk; ++i) detail::quantize_block(x + i * qk, out[i]);
}

}  // namespace

void quantize_row(QuantType t, const float* x, void* blocks, std::size_t n) {
  check_row_length(t, n, "quantize_row");
  switch (t) {
    case QuantType::q4_0: return quantize_weight_blocks<QuantType::q4_0>(x, blocks, n);
    case QuantType::q4_1: return quantize_weight_blocks<QuantType::q4_1>(x, blocks, n);
    case QuantType::q5_0: return quantize_weight_blocks<QuantType::q5_0>(x, blocks, n);
    case QuantType::q5_1: return quantize_weight_blocks<QuantType::q5_1>(x, blocks, n);
    case QuantType::q8_0: return quantize_weight_blocks<QuantType::q8_0>(x, blocks, n);
    case QuantType::q2_K: return quantize_weight_blocks<QuantType::q2_K>(x, blocks, n);
    case QuantType::q3_K: return quantize_weight_blocks<QuantType::q3_K>(x, blocks, n);
    case QuantType::q4_K: return quantize_weight_blocks<QuantType::q4_K>(x, blocks, n);
    case QuantType::q5_K: return quantize_weight_blocks<QuantType::q5_K>(x, blocks, n);
    case QuantType::q6_K: return quantize_weight_blocks<QuantType::q6_K>(x, blocks, n);
    case QuantType::iq4_nl: return quantize_weight_blocks<QuantType::iq4_nl>(x, blocks, n);
    case QuantType::iq4_xs: return quantize_weight_blocks<QuantType::iq4_xs>(x, blocks, n);
    case QuantType::q8_1: {
      auto* out = static_cast<block_q8_1*>(blocks);
      for (std::size_t i = 0; i < n / 32; ++i) out[i] = quantize_block_q8_1(x + 32 * i);
      return;
    }
#if GRIDFUZZ_GGUF_IQ
    case QuantType::iq2_xxs: return quantize_weight_blocks<QuantType::iq2_xxs>(x, blocks, n);
    case QuantType::iq2_xs: return quantize_weight_blocks<QuantType::iq2_xs>(x, blocks, n);
    case QuantType::iq2_s: return quantize_weight_blocks<QuantType::iq2_s>(x, blocks, n);
    case QuantType::iq3_xxs: return quantize_weight_blocks<QuantType::iq3_xxs>(x, blocks, n);
    case QuantType::iq3_s: return quantize_weight_blocks<QuantType::iq3_s>(x, blocks, n);
    case QuantType::iq1_s: return quantize_weight_blocks<QuantType::iq1_s>(x, blocks, n);
    case QuantType::iq1_m: return quantize_weight_blocks<QuantType::iq1_m>(x, blocks, n);
#endif
    default: break;
  }
  throw std::invalid_argument(std::string("quantize_row: ") + quant_traits(t).name +
                              " is not built (its codebooks were not generated at configure time)");
}

// Derivations. A = block (super-block) amax. Scales are rounded away from zero, so inputs stay
// inside their grid; "d" below is the stored scale, |d| <= its ideal value * (1 + 2^-10) (that
// factor, and the 2^-16 floor for half-subnormal scales, are what quantization_error_bound adds).
// For two-level formats the bound is a triangle inequality: the ideal sub-scale s puts x within
// e_ideal of a grid point s*q; the stored sub-scale s' (|s - s'| <= d/2 by rounding, <= d where it
// is clamped at the scale grid end) moves that point by at most |q|max * |s - s'| (plus the min's
// rounding for affine formats), and the chosen quant is the nearest under s', so no worse.
double quantization_error_coefficient(QuantType t) {
  switch (t) {
    // Extreme -> -8d, d = A/8: the opposite side reaches +8d but the grid ends at 7d: error <= d.
    case QuantType::q4_0: return 1.0 / 8;
    // Same with 5 bits: d = A/16, error <= d.
    case QuantType::q5_0: return 1.0 / 16;
    // Grid [min, max] in 15 steps: error <= (max-min)/30 <= 2A/30 (m's half rounding error is
    // <= A*2^-11, below this).
    case QuantType::q4_1: return 1.0 / 15;
    case QuantType::q5_1: return 1.0 / 31;  // 31 steps: 2A/62
    // d = A/127, nearest in [-127, 127]: error <= d/2.
    case QuantType::q8_0: return 1.0 / 254;
    // q8_1: q chosen with the float d, read back with half(d): d/2 + 127*|d - half(d)|
    // <= A/254 + A*2^-11.
    case QuantType::q8_1: return 1.0 / 254 + 1.0 / 2048;
    // 16-value sub-blocks, s <= 2A/3, d <= 2A/45, dmin <= A/15:
    // s/2 + dmin/2 + 3*d/2 = A/3 + A/30 + A/15.
    case QuantType::q2_K: return 13.0 / 30;
    // s = (sub-block amax)/4 <= A/4 (extreme -> -4s), grid [-4, 3]: ideal error <= |s| on the
    // opposite side; d = A/128, |s - s'| <= d (clamp at +31): + 4*d. A/4 + A/32.
    case QuantType::q3_K: return 9.0 / 32;
    // s <= 2A/15, d <= 2A/(15*63), dmin <= A/63: s/2 + dmin/2 + 15*d/2 = A/15 + A/126 + A/63.
    case QuantType::q4_K: return 19.0 / 210;
    // s <= 2A/31: A/31 + A/126 + 31*d/2 (= A/63).
    case QuantType::q5_K: return 73.0 / 1302;
    // s = (sub-block amax)/32 <= A/32, grid [-32, 31]: ideal error <= |s|; d = A/4096,
    // |s - s'| <= d (clamp at +127): + 32*d. A/32 + A/128.
    case QuantType::q6_K: return 5.0 / 128;
    // Extreme -> -127d, d = A/127; inputs span [-127d, 127d], the table [-127d, 113d]; the widest
    // gap is 24 (89..113) so inside the table the error is <= 12d; past 113 it is <= 14d.
    case QuantType::iq4_nl: return 14.0 / 127;
    // Per 32-group ideal s = (group amax)/127 <= A/127: ideal error <= 14|s|; super-scale
    // d = A/(127*32), |s - s'| <= d, times the largest table magnitude 127: + A/32.
    case QuantType::iq4_xs: return 14.0 / 127 + 1.0 / 32;
    // Codebook i-quants: a grid point near in L2 gives no per-element guarantee (the codebooks
    // are sparse: 256 of the 3^8 iq2 patterns), so the bound is the range one, |y - x| <= |x| + |y|.
    // |x| <= A; |y| <= (grid end) * (unit value scale), and the nearest sub-scale is at most half
    // a step above the ideal one (unit amax / grid end):
    //   iq2 (step d/4, d = A / (43 * 3.875)): |y| <= A + 43 * d/8 = A + A/31;
    //   iq3 (step d/2, d = A / (62 * 7.75)):  |y| <= A + 62 * d/4 = A + A/31;
    //   iq1 (step 2d, d = A / (1.125 * 15)):  |y| <= A + 1.125 * d = A + A/15.
    // The exactness of representable inputs is what the tests check beyond this.
    case QuantType::iq2_xxs:
    case QuantType::iq2_xs:
    case QuantType::iq2_s:
    case QuantType::iq3_xxs:
    case QuantType::iq3_s: return 2.0 + 1.0 / 31;
    case QuantType::iq1_s:
    case QuantType::iq1_m: return 2.0 + 1.0 / 15;
  }
  return 0;
}

double quantization_error_bound(QuantType t, double block_amax) {
  return quantization_error_coefficient(t) * (1.0 + 1.0 / 512) * block_amax + kQuantizationErrorFloor;
}

}  // namespace gridfuzz::formats::gguf
