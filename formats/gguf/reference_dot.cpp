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
#include "gridfuzz/formats/gguf/reference_dot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "gridfuzz/formats/gguf/dequantize.hpp"
#include "gridfuzz/formats/gguf/fp16.hpp"
#include "gridfuzz/formats/gguf/scale_packing.hpp"
#include "codebook_blocks.hpp"

namespace gridfuzz::formats::gguf {
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

// The additive weight offset of each 32-value block of the folding types (w = unsigned part + a),
// into `a` (its storage reused).
void additive_block_offsets(QuantType t, const void* blocks, std::size_t cols, std::vector<double>& a) {
  a.assign(cols / 32, 0.0);
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
}

// |offset| of the `n` elements from `blocks` (a whole number of weight blocks) into o: the folding
// types' |a_b| (a: additive_block_offsets from the same first block), and dmin * min of the
// K-quants with mins; 0 for the symmetric types.
void element_offsets(QuantType t, const void* blocks, const double* a, std::size_t n, double* o) {
  if (folds_offset_through_q8_1_sum(t)) {
    for (std::size_t c = 0; c < n; ++c) o[c] = std::fabs(a[c / 32]);
    return;
  }
  for (std::size_t c = 0; c < n; ++c) {
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
        std::fill(o, o + n, 0.0);  // symmetric formats: no offset
        return;
    }
  }
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

// Columns of one step of ElementDot's pass: a whole number of blocks of every type (32 or 256
// values), few enough that the step's float64 values stay in L1.
constexpr std::size_t kStepCols = 256;

}  // namespace

bool folds_offset_through_q8_1_sum(QuantType t) {
  return t == QuantType::q4_0 || t == QuantType::q4_1 || t == QuantType::q5_0 || t == QuantType::q5_1 ||
         t == QuantType::iq1_s;
}

namespace {
// fast_division_q8_1_error_bound's relative distances: the GPU's d from the CPU's, x/d from x/d_cpu.
constexpr double kFastDivScaleRel = 0x1p-21, kFastDivQuotientRel = 0x1p-20;
double half_of(double v) { return half(float_to_half_bits(static_cast<float>(v))); }

// fp16_scale_product_error_bound's rounding of one fp16 product p.
double fp16_product_rounding(double p) {
  return std::fabs(p) >= std::ldexp(1.0, -14) ? std::ldexp(std::fabs(p), -11) : std::ldexp(1.0, -25);
}
}  // namespace

ElementDot::ElementDot(QuantType t, const void* weight_row_blocks, const block_q8_1* act_row, std::size_t cols,
                       const FastDivisionQ8_1Row* fast_division) {
  assign(t, weight_row_blocks, act_row, cols, fast_division);
}

// One pass over the row in steps of kStepCols columns: each step dequantizes its weights and
// activations into arrays on the stack and adds the step's terms to every sum. Each sum still
// adds its terms in column order (block order for the per-block ones), exactly as the separate
// passes over whole dequantized rows did, so every result has the same bits.
void ElementDot::assign(QuantType t, const void* weight_row_blocks, const block_q8_1* act_row, std::size_t cols,
                        const FastDivisionQ8_1Row* fast_division) {
  check_weight_row(t, cols, "ElementDot");
  if (fast_division != nullptr && fast_division->cols() != cols) {
    throw std::invalid_argument("ElementDot: an activation row of " + std::to_string(fast_division->cols()) +
                                " values for a weight row of " + std::to_string(cols));
  }
  t_ = t;
  cols_ = cols;
  has_fast_division_ = fast_division != nullptr;
  const bool folds = folds_offset_through_q8_1_sum(t), may_fold = may_fold_offset_through_q8_1_sum(t);
  const bool scale_products = t == QuantType::q4_1 || t == QuantType::q5_1;
  const QuantTraits traits = quant_traits(t);
  const auto* weight_bytes = static_cast<const std::uint8_t*>(weight_row_blocks);
  a_.clear();
  if (folds) additive_block_offsets(t, weight_row_blocks, cols, a_);
  ob_.assign(may_fold ? cols / 32 : 0, 0.0);

  double dot = 0, via = 0, m = 0, fp16 = 0, fast = 0;
  double w[kStepCols], x[kStepCols], o[kStepCols];
  for (std::size_t c0 = 0; c0 < cols; c0 += kStepCols) {
    const std::size_t n = std::min(kStepCols, cols - c0);  // a multiple of the type's qk (and of 32)
    const std::uint8_t* blocks = weight_bytes + c0 / traits.qk * traits.block_bytes;
    const block_q8_1* act = act_row + c0 / 32;
    dequantize_row(t, blocks, w, n);                // dequant(W)
    dequantize_row(QuantType::q8_1, act, x, n);     // q8_1 q * half(d)
    element_offsets(t, blocks, folds ? a_.data() + c0 / 32 : nullptr, n, o);
    for (std::size_t c = 0; c < n; ++c) {
      const std::size_t col = c0 + c;
      dot += w[c] * x[c];                                   // reference_dot
      if (folds) {                                          // reference_dot_via_q8_1_sums
        via += (w[c] - a_[col / 32]) * x[c];  // the unsigned-quant part, exact in float64
        if (col % 32 == 31) via += a_[col / 32] * half(act_row[col / 32].s);
      }
      m += (std::fabs(w[c]) + 2 * o[c]) * std::fabs(x[c]);  // M's element terms
      // o_b, the largest o over each 32-block: std::fmax(ob, o) without its libm call (not
      // inlined without -ffast-math, it was a third of a sample's time). The same value: ob is
      // never NaN, a NaN o is skipped by both, and no o is -0 (each is a fabs, or a product of
      // non-negative values), so +0 against -0, where they could differ, cannot arise.
      if (may_fold && o[c] > ob_[col / 32]) ob_[col / 32] = o[c];
    }
    for (std::size_t b = 0; b < n / 32; ++b) {
      const std::size_t block = c0 / 32 + b;  // the 32-block of the row
      if (scale_products) {  // fp16_scale_product_error_bound (q4_1, q5_1: 32-value blocks)
        // d and m lead both block layouts (blocks.hpp); the offset part folds through s8.
        std::uint16_t d_bits = 0, m_bits = 0;
        std::memcpy(&d_bits, weight_bytes + block * traits.block_bytes, 2);
        std::memcpy(&m_bits, weight_bytes + block * traits.block_bytes + 2, 2);
        const double d = half(d_bits), mm = half(m_bits), d8 = half(act_row[block].d), s8 = half(act_row[block].s);
        double scaled = 0;  // d*d8*sumi exactly: sum of (w - m) * x over the block
        for (std::size_t c = b * 32; c < b * 32 + 32; ++c) scaled += (w[c] - mm) * x[c];
        const double sumi = d * d8 != 0 ? std::fabs(scaled / (d * d8)) : 32.0 * 31 * 127;
        fp16 += fp16_product_rounding(d * d8) * sumi + fp16_product_rounding(mm * s8);
      }
      if (fast_division != nullptr) {  // fast_division_q8_1_error_bound
        const FastDivisionQ8_1Row::Block& blk = fast_division->blocks_[block];
        if (blk.skip) continue;
        double scale_part = 0, step_part = 0;
        for (std::size_t c = b * 32; c < b * 32 + 32; ++c) {
          const double f = std::fabs(w[c]) + o[c];
          const bool ambiguous = fast_division->ambiguous_[c0 + c] != 0;
          const double q = std::abs(static_cast<int>(act_row[block].qs[c - b * 32]));  // |q_c| of the CPU's q8_1
          scale_part += f * (q + (ambiguous ? 1 : 0));
          if (ambiguous) step_part += f;
        }
        fast += blk.dh * scale_part + blk.h_max * step_part;
      }
    }
  }
  // M's block terms, after all element terms.
  for (std::size_t b = 0; b < ob_.size(); ++b) m += ob_[b] * 4064.0 * std::fabs(half(act_row[b].d));
  dot_ = dot;
  dot_via_q8_1_sums_ = folds ? via : dot;
  magnitude_ = m;
  fp16_scale_product_error_bound_ = fp16;
  fast_division_q8_1_error_bound_ = fast;
}

double ElementDot::tolerance() const {
  double tol = gpu_dot_relative_bound(t_, cols_) * magnitude_;
  for (double ob : ob_) tol += ob * std::ldexp(1.0, -12);  // ob_ is empty unless the type may fold
  return tol + 1e-30;
}

double ElementDot::tolerance_via_q8_1_sums() const {
  return gpu_dot_fp32_relative_bound(t_, cols_) * magnitude_ + 1e-30;
}

double ElementDot::fast_division_q8_1_error_bound() const {
  if (!has_fast_division_)
    throw std::logic_error("ElementDot: fast_division_q8_1_error_bound needs its activation row");
  return fast_division_q8_1_error_bound_;
}

double reference_dot(QuantType t, const void* weight_row_blocks, const block_q8_1* act_row, std::size_t cols) {
  check_weight_row(t, cols, "reference_dot");
  return ElementDot(t, weight_row_blocks, act_row, cols).dot();
}

double reference_dot_via_q8_1_sums(QuantType t, const void* weight_row_blocks, const block_q8_1* act_row,
                                   std::size_t cols) {
  check_weight_row(t, cols, "reference_dot_via_q8_1_sums");
  return ElementDot(t, weight_row_blocks, act_row, cols).dot_via_q8_1_sums();
}

double reference_dot_magnitude(QuantType t, const void* weight_row_blocks, const block_q8_1* act_row,
                               std::size_t cols) {
  check_weight_row(t, cols, "reference_dot_magnitude");
  return ElementDot(t, weight_row_blocks, act_row, cols).magnitude();
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
  check_weight_row(t, cols, "gpu_dot_tolerance");
  return ElementDot(t, weight_row_blocks, act_row, cols).tolerance();
}

double gpu_dot_tolerance_via_q8_1_sums(QuantType t, const void* weight_row_blocks, const block_q8_1* act_row,
                                       std::size_t cols) {
  check_weight_row(t, cols, "gpu_dot_tolerance_via_q8_1_sums");
  return ElementDot(t, weight_row_blocks, act_row, cols).tolerance_via_q8_1_sums();
}

double fp16_scale_product_error_bound(QuantType t, const void* weight_row_blocks, const block_q8_1* act_row,
                                      std::size_t cols) {
  if (t != QuantType::q4_1 && t != QuantType::q5_1) return 0;
  check_weight_row(t, cols, "fp16_scale_product_error_bound");
  return ElementDot(t, weight_row_blocks, act_row, cols).fp16_scale_product_error_bound();
}

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

FastDivisionQ8_1Row::FastDivisionQ8_1Row(const float* x, const block_q8_1* act_row, std::size_t cols) {
  check_row_length(QuantType::q8_1, cols, "FastDivisionQ8_1Row");
  blocks_.resize(cols / 32);
  ambiguous_.assign(cols, 0);
  for (std::size_t b = 0; b < cols / 32; ++b) {
    Block& blk = blocks_[b];
    float amax = 0.0f;
    for (std::size_t c = b * 32; c < b * 32 + 32; ++c) amax = std::fmax(amax, std::fabs(x[c]));
    blk.skip = amax == 0.0f;  // q = 0 and d = 0 on both sides
    if (blk.skip) continue;
    const float d = amax / 127.0f;
    const double h = half(act_row[b].d);
    const double h_lo = half_of(d * (1 - kFastDivScaleRel)), h_hi = half_of(d * (1 + kFastDivScaleRel));
    blk.h_max = std::fmax(std::fabs(h), std::fmax(std::fabs(h_lo), std::fabs(h_hi)));
    blk.dh = std::fmax(std::fabs(h_lo - h), std::fabs(h_hi - h));
    for (std::size_t c = b * 32; c < b * 32 + 32; ++c)
      ambiguous_[c] = fast_division_q8_1_quant_ambiguous(x[c], d) ? 1 : 0;
  }
}

double fast_division_q8_1_error_bound(QuantType t, const void* weight_row_blocks, const float* x,
                                      const block_q8_1* act_row, std::size_t cols) {
  check_weight_row(t, cols, "fast_division_q8_1_error_bound");
  const FastDivisionQ8_1Row row(x, act_row, cols);
  return ElementDot(t, weight_row_blocks, act_row, cols, &row).fast_division_q8_1_error_bound();
}

}  // namespace gridfuzz::formats::gguf
