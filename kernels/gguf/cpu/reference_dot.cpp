// CPU reference of one moe_vec output element and the GPU-vs-reference tolerances.
//
// Why the bounds hold, with u = 2^-24 (fp32 unit roundoff):
//
// (a) fp32 rounding (gpu_dot_fp32_relative_bound). The GPU forms, per vec_dot call, a few fp32
//     products and sums of exact integer dots (at most ~12 roundings, K-quants summing their
//     sub-blocks included), each lane adds its calls into one running sum
//     (ceil(blocks / blocks_per_warp) terms), and 5 butterfly steps combine the lanes. Every
//     intermediate is bounded by M (reference_dot_magnitude): a weight quant times its scale is
//     at most |w| + |o| per element, an integer-sum offset term |o| * |x|, an offset through s
//     o_b * |s_b| <= o_b * 4064 * d8_b (plus rounding). Standard summation analysis gives
//     |error| <= n*u/(1 - n*u) * M with n = 16 + 5 + terms per lane (16 covers the per-call
//     operations with margin); we use 1.01 * n * u.
//
// (b) offset through s (gpu_dot_relative_bound only). The GPU multiplies the block's offset by
//     s8 = half(fl(sum x)) where reference_dot has d8 * sum(q). With d = fl(amax/127), d8 = half(d):
//       |x_c - d8*q_c| <= |x_c - d*q_c| + |q_c|*|d - d8| <= d*(1/2 + 127u) + 127*2^-11*d
//       summed over the 32 values:                         <= 17.98 d
//       |fl(sum x) - sum x| (5 levels of adds)             <= 5u * 32 * amax     (~0.0003 d)
//       |half(S) - S| <= 2^-11 * 32 * amax = 2^-11 * 4064 d                      (1.98 d)
//     so |s8 - d8*sum q| <= 19.97 d, against the magnitude term o_b * 4064 * d8 with
//     d8 >= d*(1 - 2^-11): relative 19.97 / (4064 * (1 - 2^-11)) = 0.004917 < 0.005.
//     Half-subnormal d8 or s8 (amax < 127*2^-14) loses the relative rounding; their absolute
//     errors (<= 2^-25 each, times at most 32*127 quants) are covered by 2^-12 * o_b.
//     q4_K/q5_K get this term too although our reading is that the mmvq dots use integer sums for
//     them: a kernel that folds their mins through s then still passes.
//
// Not covered: a kernel writing bf16/fp16 output (add that rounding). Fast-math division in the
// activation quantizer (it changes q itself) has a bound of its own: fast_division_q8_1_error_bound.
#include "gridfuzz/gguf/reference_dot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "gridfuzz/gguf/dequantize.hpp"
#include "gridfuzz/gguf/fp16.hpp"
#include "gridfuzz/gguf/scale_packing.hpp"
#include "codebook_blocks.hpp"

namespace gridfuzz::gguf {
namespace {

double half(std::uint16_t bits) { return static_cast<double>(half_bits_to_float(bits)); }

// iq1 values are dl * (g + delta) with g in {-1, 0, 1}: the kernels take dl * (g + 1) (the grid's
// GPU form, never negative) and the offset dl * (delta - 1) apart. The offset of 8-value group g
// (0..31) of a block:
double iq1_s_group_offset(const block_iq1_s& b, int g) {
  const unsigned qh = b.qh[g / 4];
  const double dl = half(b.d) * (2 * ((qh >> 12) & 7u) + 1);
  return dl * ((qh & 0x8000u ? -0.125 : 0.125) - 1);
}
#if GRIDFUZZ_GGUF_IQ
double iq1_m_group_offset(const block_iq1_m& b, int g) {
  const double dl = half(detail::iq1_m_super_scale_bits(b)) * (2 * detail::iq1_m_scale(b, g / 2) + 1);
  const unsigned nibble = (b.qh[g / 2] >> (4 * (g % 2))) & 15u;
  return dl * ((nibble & 8u ? -0.125 : 0.125) - 1);
}
#endif

// The additive weight offset of each 32-value block of the folding types (w = unsigned part + a).
std::vector<double> additive_block_offsets(QuantType t, const void* blocks, std::size_t cols) {
  std::vector<double> a(cols / 32, 0.0);
  for (std::size_t b = 0; b < a.size(); ++b) {
    switch (t) {
      case QuantType::q4_0: a[b] = -8 * half(static_cast<const block_q4_0*>(blocks)[b].d); break;
      case QuantType::q5_0: a[b] = -16 * half(static_cast<const block_q5_0*>(blocks)[b].d); break;
      case QuantType::q4_1: a[b] = half(static_cast<const block_q4_1*>(blocks)[b].m); break;
      case QuantType::q5_1: a[b] = half(static_cast<const block_q5_1*>(blocks)[b].m); break;
      // iq1_s: one delta per 32 values, so the offset is constant over a q8_1 block.
      case QuantType::iq1_s: a[b] = iq1_s_group_offset(static_cast<const block_iq1_s*>(blocks)[b / 8], 4 * (b % 8)); break;
      default: break;
    }
  }
  return a;
}

// |offset| of every element: the folding types' |a_b|, and dmin * min of the K-quants with mins.
std::vector<double> element_offsets(QuantType t, const void* blocks, std::size_t cols) {
  std::vector<double> o(cols, 0.0);
  if (folds_offset_through_q8_1_sum(t)) {
    const std::vector<double> a = additive_block_offsets(t, blocks, cols);
    for (std::size_t c = 0; c < cols; ++c) o[c] = std::fabs(a[c / 32]);
    return o;
  }
  for (std::size_t c = 0; c < cols; ++c) {
    const std::size_t blk = c / kQK_K;
    const int e = static_cast<int>(c % kQK_K);
    switch (t) {
      case QuantType::q2_K: {
        const auto& b = static_cast<const block_q2_K*>(blocks)[blk];
        o[c] = std::fabs(half(b.dmin)) * (b.scales[e / 16] >> 4);
        break;
      }
      case QuantType::q4_K: {
        const auto& b = static_cast<const block_q4_K*>(blocks)[blk];
        o[c] = std::fabs(half(b.dmin)) * decode_scale_min_k4(b.scales, e / 32).min;
        break;
      }
      case QuantType::q5_K: {
        const auto& b = static_cast<const block_q5_K*>(blocks)[blk];
        o[c] = std::fabs(half(b.dmin)) * decode_scale_min_k4(b.scales, e / 32).min;
        break;
      }
#if GRIDFUZZ_GGUF_IQ
      case QuantType::iq1_m: {
        const auto& b = static_cast<const block_iq1_m*>(blocks)[blk];
        o[c] = std::fabs(iq1_m_group_offset(b, e / 8));
        break;
      }
#endif
      default:
        return o;  // symmetric formats: no offset
    }
  }
  return o;
}

// Types whose offset the magnitude and the loose bound treat as possibly taken through s.
bool may_fold_offset_through_q8_1_sum(QuantType t) {
  return folds_offset_through_q8_1_sum(t) || t == QuantType::q4_K || t == QuantType::q5_K;
}

void check_weight_row(QuantType t, std::size_t cols, const char* who) {
  if (!quant_traits(t).has_moe_vec) {
    throw std::invalid_argument(std::string(who) + ": " + quant_traits(t).name + " is not a weight type");
  }
  check_row_length(t, cols, who);
}

struct DequantizedRow {
  std::vector<double> w;  // dequant(W)
  std::vector<double> x;  // q8_1 q * half(d)
};

DequantizedRow dequantized(QuantType t, const void* weights, const block_q8_1* act_row, std::size_t cols) {
  DequantizedRow r{std::vector<double>(cols), std::vector<double>(cols)};
  dequantize_row(t, weights, r.w.data(), cols);
  dequantize_row(QuantType::q8_1, act_row, r.x.data(), cols);
  return r;
}

// Largest per-element offset over each 32-value activation block (o_b).
std::vector<double> block_maxima(const std::vector<double>& o) {
  std::vector<double> ob(o.size() / 32, 0.0);
  for (std::size_t c = 0; c < o.size(); ++c) ob[c / 32] = std::fmax(ob[c / 32], o[c]);
  return ob;
}

}  // namespace

bool folds_offset_through_q8_1_sum(QuantType t) {
  return t == QuantType::q4_0 || t == QuantType::q4_1 || t == QuantType::q5_0 || t == QuantType::q5_1 ||
         t == QuantType::iq1_s;
}

double reference_dot(QuantType t, const void* weight_row_blocks, const block_q8_1* act_row, std::size_t cols) {
  check_weight_row(t, cols, "reference_dot");
  const DequantizedRow r = dequantized(t, weight_row_blocks, act_row, cols);
  double sum = 0;
  for (std::size_t c = 0; c < cols; ++c) sum += r.w[c] * r.x[c];
  return sum;
}

double reference_dot_via_q8_1_sums(QuantType t, const void* weight_row_blocks, const block_q8_1* act_row,
                                   std::size_t cols) {
  check_weight_row(t, cols, "reference_dot_via_q8_1_sums");
  if (!folds_offset_through_q8_1_sum(t)) return reference_dot(t, weight_row_blocks, act_row, cols);
  const DequantizedRow r = dequantized(t, weight_row_blocks, act_row, cols);
  const std::vector<double> a = additive_block_offsets(t, weight_row_blocks, cols);
  double sum = 0;
  for (std::size_t c = 0; c < cols; ++c) {
    sum += (r.w[c] - a[c / 32]) * r.x[c];  // the unsigned-quant part, exact in float64
    if (c % 32 == 31) sum += a[c / 32] * half(act_row[c / 32].s);
  }
  return sum;
}

double reference_dot_magnitude(QuantType t, const void* weight_row_blocks, const block_q8_1* act_row,
                               std::size_t cols) {
  check_weight_row(t, cols, "reference_dot_magnitude");
  const DequantizedRow r = dequantized(t, weight_row_blocks, act_row, cols);
  const std::vector<double> o = element_offsets(t, weight_row_blocks, cols);
  double m = 0;
  for (std::size_t c = 0; c < cols; ++c) m += (std::fabs(r.w[c]) + 2 * o[c]) * std::fabs(r.x[c]);
  if (may_fold_offset_through_q8_1_sum(t)) {
    const std::vector<double> ob = block_maxima(o);
    for (std::size_t b = 0; b < ob.size(); ++b) m += ob[b] * 4064.0 * std::fabs(half(act_row[b].d));
  }
  return m;
}

double gpu_dot_fp32_relative_bound(QuantType t, std::size_t cols) {
  const std::size_t blocks = cols / quant_traits(t).qk;
  const std::size_t per_warp = blocks_per_warp(t);
  const std::size_t terms_per_lane = per_warp == 0 ? blocks : (blocks + per_warp - 1) / per_warp;
  return 1.01 * static_cast<double>(16 + 5 + terms_per_lane) * std::ldexp(1.0, -24);
}

double gpu_dot_fp32_serial_bound(QuantType t, std::size_t cols) {
  const std::size_t blocks = cols / quant_traits(t).qk;
  return 1.01 * static_cast<double>(21 + 2 * blocks) * std::ldexp(1.0, -24);
}

double gpu_dot_relative_bound(QuantType t, std::size_t cols) {
  return gpu_dot_fp32_relative_bound(t, cols) + (may_fold_offset_through_q8_1_sum(t) ? 0.005 : 0.0);
}

double gpu_dot_tolerance(QuantType t, const void* weight_row_blocks, const block_q8_1* act_row, std::size_t cols) {
  double tol = gpu_dot_relative_bound(t, cols) * reference_dot_magnitude(t, weight_row_blocks, act_row, cols);
  if (may_fold_offset_through_q8_1_sum(t)) {
    for (double ob : block_maxima(element_offsets(t, weight_row_blocks, cols))) tol += ob * std::ldexp(1.0, -12);
  }
  return tol + 1e-30;
}

double gpu_dot_tolerance_via_q8_1_sums(QuantType t, const void* weight_row_blocks, const block_q8_1* act_row,
                                       std::size_t cols) {
  return gpu_dot_fp32_relative_bound(t, cols) * reference_dot_magnitude(t, weight_row_blocks, act_row, cols) + 1e-30;
}

double fp16_scale_product_error_bound(QuantType t, const void* weight_row_blocks, const block_q8_1* act_row,
                                      std::size_t cols) {
  if (t != QuantType::q4_1 && t != QuantType::q5_1) return 0;
  check_weight_row(t, cols, "fp16_scale_product_error_bound");
  const auto rounding = [](double p) {
    return std::fabs(p) >= std::ldexp(1.0, -14) ? std::ldexp(std::fabs(p), -11) : std::ldexp(1.0, -25);
  };
  const DequantizedRow r = dequantized(t, weight_row_blocks, act_row, cols);
  const auto* bytes = static_cast<const std::uint8_t*>(weight_row_blocks);
  const std::size_t block_bytes = quant_traits(t).block_bytes;
  double bound = 0;
  for (std::size_t b = 0; b < cols / 32; ++b) {
    // d and m lead both block layouts (blocks.hpp); the offset part folds through s8.
    std::uint16_t d_bits = 0, m_bits = 0;
    std::memcpy(&d_bits, bytes + b * block_bytes, 2);
    std::memcpy(&m_bits, bytes + b * block_bytes + 2, 2);
    const double d = half(d_bits), m = half(m_bits), d8 = half(act_row[b].d), s8 = half(act_row[b].s);
    double scaled = 0;  // d*d8*sumi exactly: sum of (w - m) * x over the block
    for (std::size_t c = b * 32; c < b * 32 + 32; ++c) scaled += (r.w[c] - m) * r.x[c];
    const double sumi = d * d8 != 0 ? std::fabs(scaled / (d * d8)) : 32.0 * 31 * 127;
    bound += rounding(d * d8) * sumi + rounding(m * s8);
  }
  return bound;
}

namespace {
// fast_division_q8_1_error_bound's relative distances: the GPU's d from the CPU's, x/d from x/d_cpu.
constexpr double kFastDivScaleRel = 0x1p-21, kFastDivQuotientRel = 0x1p-20;
double half_of(double v) { return half(float_to_half_bits(static_cast<float>(v))); }
}  // namespace

bool fast_division_q8_1_quant_ambiguous(float x, float d) {
  if (d < std::numeric_limits<float>::min()) return true;  // ftz flushes d: x/d is not x/d
  if (x != 0.0f && std::fabs(x) < std::numeric_limits<float>::min()) return true;  // ftz flushes x to 0
  const double v = static_cast<double>(x) / static_cast<double>(d);
  const double e = std::fabs(v) * kFastDivQuotientRel;
  return std::round(v - e) != std::round(v + e);  // a tie point of roundf lies within reach
}

bool fast_division_q8_1_scale_ambiguous(float d) {
  return half_of(d * (1 - kFastDivScaleRel)) != half_of(d * (1 + kFastDivScaleRel));
}

double fast_division_q8_1_error_bound(QuantType t, const void* weight_row_blocks, const float* x,
                                      const block_q8_1* act_row, std::size_t cols) {
  check_weight_row(t, cols, "fast_division_q8_1_error_bound");
  const DequantizedRow r = dequantized(t, weight_row_blocks, act_row, cols);
  const std::vector<double> o = element_offsets(t, weight_row_blocks, cols);
  double bound = 0;
  for (std::size_t b = 0; b < cols / 32; ++b) {
    float amax = 0.0f;
    for (std::size_t c = b * 32; c < b * 32 + 32; ++c) amax = std::fmax(amax, std::fabs(x[c]));
    if (amax == 0.0f) continue;  // q = 0 and d = 0 on both sides
    const float d = amax / 127.0f;
    const double h = half(act_row[b].d);
    const double h_lo = half_of(d * (1 - kFastDivScaleRel)), h_hi = half_of(d * (1 + kFastDivScaleRel));
    const double h_max = std::fmax(std::fabs(h), std::fmax(std::fabs(h_lo), std::fabs(h_hi)));
    const double dh = std::fmax(std::fabs(h_lo - h), std::fabs(h_hi - h));
    double scale_part = 0, step_part = 0;
    for (std::size_t c = b * 32; c < b * 32 + 32; ++c) {
      const double f = std::fabs(r.w[c]) + o[c];
      const bool ambiguous = fast_division_q8_1_quant_ambiguous(x[c], d);
      const double q = std::abs(static_cast<int>(act_row[b].qs[c - b * 32]));  // |q_c| of the CPU's q8_1
      scale_part += f * (q + (ambiguous ? 1 : 0));
      if (ambiguous) step_part += f;
    }
    bound += dh * scale_part + h_max * step_part;
  }
  return bound;
}

}  // namespace gridfuzz::gguf
