#pragma once
// CPU reference for one moe_vec / mmvq output element, and the tolerance for comparing the GPU
// kernel's fp32 result against it.
//
// The GPU kernel (docs/KERNELS.md, "GGUF dot product") computes, per 32-value block, integer dots
// of weight quants with q8_1 quants times fp32 scales, and for q4_0, q4_1, q5_0, q5_1 folds the
// weight offset (-8*d, -16*d or m) through the q8_1 block sum s instead of through sum(q)*d. The
// reference instead uses the exactly dequantized activations everywhere, so the two differ by (a)
// fp32 rounding and (b) s - d*sum(q) per block times the offset; gpu_dot_relative_bound states both
// (derivation in reference_dot.cpp). reference_dot_via_q8_1_sums removes (b) by arranging the
// float64 sum the kernel's way; use it with gpu_dot_tolerance_via_q8_1_sums for a tight check (the
// bound for (b) is a worst case, loose enough for q4_0 rows of a few thousand columns that it
// cannot always tell one row's dot from another's).
#include <cstddef>
#include <vector>

#include "gridfuzz/formats/gguf/blocks.hpp"
#include "gridfuzz/formats/gguf/quant_type.hpp"

namespace gridfuzz::formats::gguf {

// sum over c < cols of dequant(W)[c] * (q8_1 q[c] * half d of its block), in float64. `cols` must
// be a multiple of the weight type's qk; act_row holds at least cols/32 blocks (a padded row).
double reference_dot(QuantType t, const void* weight_row_blocks, const block_q8_1* act_row, std::size_t cols);

// Whether the GPU dot takes the weight offset times the q8_1 block sum s rather than times
// d8 * sum(q): q4_0, q4_1, q5_0, q5_1 (docs/KERNELS.md, "GGUF dot product"), and iq1_s, whose
// offset dl * (delta - 1) of each 32 values goes through s (vLLM's vec_dot_iq1_s_q8_1 and ours;
// iq1_m takes integer sums per 8 values instead). K-quants with mins
// (q2_K, q4_K, q5_K) take integer sums of the q8_1 quants per sub-block instead (q2_K must: its
// 16-value sub-blocks do not line up with s); a CUDA kernel that uses s for q4_K/q5_K must extend
// this predicate.
bool folds_offset_through_q8_1_sum(QuantType t);

// The same dot arranged as the GPU kernel arranges it, in float64: for the folding types each
// 32-block contributes sum_c (w_c - a_b) * x_c + a_b * s_b, with a_b the block's additive weight
// offset (-8d q4_0, -16d q5_0, m q4_1/q5_1) and s_b the stored half s; otherwise equal to
// reference_dot. Differs from the kernel only by fp32 rounding, so it allows a tight comparison.
double reference_dot_via_q8_1_sums(QuantType t, const void* weight_row_blocks, const block_q8_1* act_row,
                                   std::size_t cols);

// The magnitude the GPU error is relative to:
//   M = sum_c (|w_c| + 2*|o_c|) * |x_c|  +  [may fold through s] sum_b o_b * 4064 * d8_b
// with x_c the dequantized activation, o_c the magnitude of the weight offset of element c
// (8|d| q4_0, 16|d| q5_0, |m| q4_1/q5_1, dmin*m_sub for q2_K/q4_K/q5_K, |dl*(delta-1)| for
// iq1_s/iq1_m, 0 for symmetric types),
// o_b its largest value over the 32-block b, and 4064 * d8_b = 32 * 127 * d8_b >= the block's |s|.
// "May fold" is folds_offset_through_q8_1_sum plus, conservatively, q4_K and q5_K. M bounds every
// intermediate the GPU sums, so fp32 rounding is relative to it.
double reference_dot_magnitude(QuantType t, const void* weight_row_blocks, const block_q8_1* act_row,
                               std::size_t cols);

// fp32 rounding only: |gpu - reference_dot_via_q8_1_sums| <= gpu_dot_fp32_relative_bound * M.
double gpu_dot_fp32_relative_bound(QuantType t, std::size_t cols);
// The same for a kernel in which one thread adds every block's product in turn (an MMQ tile):
// two roundings per block (its scaled product, the add) plus the 21 of the warp bound's margin.
double gpu_dot_fp32_serial_bound(QuantType t, std::size_t cols);

// fp32 rounding plus the s-versus-sum(q) difference: |gpu - reference_dot| <= this * M (+ the
// absolute term of gpu_dot_tolerance). 0.005 + fp32 bound for the types that may fold through s.
// For a kernel writing bf16/fp16 output, add that rounding (e.g. 2^-8 * |value| for bf16).
double gpu_dot_relative_bound(QuantType t, std::size_t cols);

// Absolute tolerances for the two references:
// against reference_dot: relative_bound * M + 2^-12 * sum_b o_b (half-subnormal d8/s) + 1e-30;
double gpu_dot_tolerance(QuantType t, const void* weight_row_blocks, const block_q8_1* act_row, std::size_t cols);
// against reference_dot_via_q8_1_sums: fp32_relative_bound * M + 1e-30.
double gpu_dot_tolerance_via_q8_1_sums(QuantType t, const void* weight_row_blocks, const block_q8_1* act_row,
                                       std::size_t cols);

// vLLM's vec_dot_q4_1_q8_1 and vec_dot_q5_1_q8_1 multiply the block's (d, m) by the activation
// block's (d8, s8) as a half2 (__hmul2; docs/upstream/vllm-gguf.md): both products rounded to
// fp16 before the float sum. The largest error that adds to the dot over the row:
//   sum_b  e(d_b*d8_b) * |sumi_b| + e(m_b*s8_b),   e(p) = 2^-11 |p| for a normal fp16 result,
//   2^-25 below 2^-14 (half the subnormal spacing), sumi_b the block's integer dot.
// 0 for every other type. A product past fp16's range becomes inf on the GPU: no bound covers it.
double fp16_scale_product_error_bound(QuantType t, const void* weight_row_blocks, const block_q8_1* act_row,
                                      std::size_t cols);

// An activation quantizer built with nvcc -use_fast_math (llama.cpp: ggml-cuda/CMakeLists.txt:199)
// divides with div.approx.ftz.f32 (__fdividef: at most 2 ulp off for divisors in [2^-126, 2^126],
// CUDA Math API; nvcc 13.0's PTX for that code shows it) both in d = amax/127 and in
// q = roundf(x/d) (quantize.cu:91-92), where quantize_row_q8_1 divides exactly. The GPU's d is
// then within 2^-22 + 2^-24 < 2^-21 (relative) of the CPU's and its x/d within
// (1 +- 2^-21)(1 +- 2^-22) < 1 +- 2^-20 of x/d_cpu. Hence, per 32-block b:
//   - q_c may be the other neighbour of x_c/d (one step off) only where the interval
//     x_c/d * [1 - 2^-20, 1 + 2^-20] holds a half-integer (roundf's tie point): "ambiguous";
//   - the stored half(d) may be the other neighbour only where half() of d * [1 -+ 2^-21] differ.
// The dot then differs from the one on the CPU's q8_1 by at most
//   sum_b  dh_b * sum_c f_c * (|q_c| + a_c)  +  h_b * sum_c a_c * f_c
// with a_c = 1 for an ambiguous element, f_c = |w_c| + o_c (the weight and its offset, as in
// reference_dot_magnitude: a quant step moves d8 * (w_c - a_b) for the folding types), h_b the
// largest and dh_b the largest change of the block's possible half(d). The folding types' s is
// summed from x, not from q, and does not move. Subnormal x or d (flushed to zero by ftz) make
// every element of the block ambiguous. 0 when no element and no scale is ambiguous; `x` is the
// row the CPU quantized into act_row (cols values).
// The two cases above, for one block of scale d = amax/127.0f as quantize_row_q8_1 computes it:
// whether x's quant may round the other way, and whether the stored half(d) may be the other one.
bool fast_division_q8_1_quant_ambiguous(float x, float d);
bool fast_division_q8_1_scale_ambiguous(float d);
double fast_division_q8_1_error_bound(QuantType t, const void* weight_row_blocks, const float* x,
                                      const block_q8_1* act_row, std::size_t cols);

// What fast_division_q8_1_error_bound needs of one activation row alone (x and the CPU's q8_1 of
// it): per 32-block whether it is all zero and h_b's largest value and change, per element
// whether it is ambiguous. It depends on no weight, so a caller that meets the row with many
// weight rows computes it once; the bound per weight row is then a few operations an element.
class FastDivisionQ8_1Row {
 public:
  // `x` holds the `cols` values quantize_row_q8_1 made `act_row` from; cols a multiple of 32.
  FastDivisionQ8_1Row(const float* x, const block_q8_1* act_row, std::size_t cols);
  std::size_t cols() const { return ambiguous_.size(); }

 private:
  friend class ElementDot;
  struct Block {
    bool skip = true;  // amax 0: q = 0 and d = 0 on both sides
    double h_max = 0, dh = 0;
  };
  std::vector<Block> blocks_;
  std::vector<unsigned char> ambiguous_;  // per element: 1 when its quant may round the other way
};

// Everything the functions above say about one output element, from one pass over its rows: each
// of them builds one of these and returns one answer, so a caller that needs several for one
// element (the GEMV CPU reference: the dot, M, some bounds) builds it once and reads each, with
// the same bits as the calls above for a fraction of the work. The pass dequantizes a few blocks
// at a time into arrays on the stack, so no row of the element is ever held in float64. assign()
// moves it to another element, reusing its (per-32-block) storage: a caller of many elements
// keeps one per thread. Throws std::invalid_argument as the functions above do (a type that is
// not a weight type, a row length that is not a multiple of its block).
class ElementDot {
 public:
  ElementDot() = default;  // no element yet: assign() one
  // `fast_division`: made from this element's activation row, for fast_division_q8_1_error_bound;
  // nullptr when that bound is not wanted (the pass then skips it).
  ElementDot(QuantType t, const void* weight_row_blocks, const block_q8_1* act_row, std::size_t cols,
             const FastDivisionQ8_1Row* fast_division = nullptr);
  void assign(QuantType t, const void* weight_row_blocks, const block_q8_1* act_row, std::size_t cols,
              const FastDivisionQ8_1Row* fast_division = nullptr);

  double dot() const { return dot_; }                              // reference_dot
  double dot_via_q8_1_sums() const { return dot_via_q8_1_sums_; }  // reference_dot_via_q8_1_sums
  double magnitude() const { return magnitude_; }                  // reference_dot_magnitude
  double tolerance() const;                                        // gpu_dot_tolerance
  double tolerance_via_q8_1_sums() const;                          // gpu_dot_tolerance_via_q8_1_sums
  double fp16_scale_product_error_bound() const { return fp16_scale_product_error_bound_; }
  // Throws std::logic_error when assign() had no FastDivisionQ8_1Row.
  double fast_division_q8_1_error_bound() const;

 private:
  QuantType t_ = QuantType::q4_0;
  std::size_t cols_ = 0;
  std::vector<double> a_;   // the folding types' additive offset per 32-block (empty otherwise)
  std::vector<double> ob_;  // o_b, the largest |offset| over each 32-block (only for the types that may fold)
  double dot_ = 0, dot_via_q8_1_sums_ = 0, magnitude_ = 0;
  double fp16_scale_product_error_bound_ = 0, fast_division_q8_1_error_bound_ = 0;
  bool has_fast_division_ = false;
};

}  // namespace gridfuzz::formats::gguf
