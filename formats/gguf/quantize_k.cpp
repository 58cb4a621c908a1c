// K-quants. Two shapes of sub-block fit:
//  - affine (q2_K, q4_K, q5_K): sub-block i spans [lo_i, hi_i] with lo_i = min(min x, 0) (the
//    format can only subtract a min), scale s_i = (hi_i - lo_i) / qmax, min mn_i = -lo_i; the
//    super-scales d = max s_i / smax and dmin = max mn_i / smax (smax = 15 or 63) make the largest
//    sub-scale use the full range, then each s_i, mn_i is rounded to its 4/6-bit multiple of d, dmin.
//  - symmetric (q3_K, q6_K): s_i maps the sub-block's input of largest magnitude to the grid end
//    -2^(b-1); the super-scale maps the largest |s_i| to the scale grid end (-32 or -128).
// Quants are then the nearest grid points under the ROUNDED scales, so scale rounding never
// compounds with a quant chosen for the unrounded scale.
#include <algorithm>

#include "gridfuzz/formats/gguf/scale_packing.hpp"
#include "quantize_support.hpp"

namespace gridfuzz::formats::gguf::detail {
namespace {

struct AffineFit {
  HalfScale d, dmin;
  std::uint8_t scale[16];  // per sub-block multiples of d (0..smax)
  std::uint8_t min[16];    // per sub-block multiples of dmin (0..smax)
  std::uint8_t q[kQK_K];   // 0..qmax
};

// subs sub-blocks of `len` values; quants 0..qmax; sub-scales 0..smax.
AffineFit fit_affine(const float* x, int subs, int len, int qmax, int smax) {
  AffineFit f{};
  double s[16], mn[16];
  double s_top = 0, mn_top = 0;
  for (int i = 0; i < subs; ++i) {
    const Range r = min_max(x + i * len, len);
    const double lo = std::min(r.lo, 0.0);
    s[i] = (r.hi - lo) / qmax;
    mn[i] = -lo;
    s_top = std::max(s_top, s[i]);
    mn_top = std::max(mn_top, mn[i]);
  }
  f.d = half_scale_away(s_top / smax);
  f.dmin = half_scale_away(mn_top / smax);
  for (int i = 0; i < subs; ++i) {
    f.scale[i] = static_cast<std::uint8_t>(f.d.value == 0 ? 0 : nearest_in(s[i] / f.d.value, 0, smax));
    f.min[i] = static_cast<std::uint8_t>(f.dmin.value == 0 ? 0 : nearest_in(mn[i] / f.dmin.value, 0, smax));
    const double step = f.d.value * f.scale[i];
    const double offset = f.dmin.value * f.min[i];
    for (int j = 0; j < len; ++j) {
      const int e = i * len + j;
      f.q[e] = static_cast<std::uint8_t>(step == 0 ? 0 : nearest_in((x[e] + offset) / step, 0, qmax));
    }
  }
  return f;
}

struct SymmetricFit {
  HalfScale d;
  int scale[16];  // sub-block scale in multiples of d, in [-shalf, shalf)
  int q[kQK_K];   // in [-qhalf, qhalf)
};

// 16 sub-blocks of 16 values; quants in [-qhalf, qhalf); scales in [-shalf, shalf).
SymmetricFit fit_symmetric(const float* x, int qhalf, int shalf) {
  SymmetricFit f{};
  double s[16];
  double s_extreme = 0;  // the sub-scale of largest magnitude, sign kept
  for (int i = 0; i < 16; ++i) {
    s[i] = signed_extreme(x + 16 * i, 16) / -qhalf;
    if (std::fabs(s[i]) > std::fabs(s_extreme)) s_extreme = s[i];
  }
  f.d = half_scale_away(s_extreme / -shalf);
  for (int i = 0; i < 16; ++i) {
    f.scale[i] = f.d.value == 0 ? 0 : nearest_in(s[i] / f.d.value, -shalf, shalf - 1);
    const double step = f.d.value * f.scale[i];
    for (int j = 0; j < 16; ++j) {
      const int e = 16 * i + j;
      f.q[e] = step == 0 ? 0 : nearest_in(x[e] / step, -qhalf, qhalf - 1);
    }
  }
  return f;
}

// q4_K / q5_K: value e's low nibble goes to qs[32*(e/64) + e%32], low half of the byte for the
// first 32 of each 64-value chunk.
// `out.qs` must be zero on entry.
template <class Block>
void pack_k4_nibbles(const std::uint8_t* q, Block& out) {
  for (int e = 0; e < kQK_K; ++e) {
    const int shift = (e % 64) < 32 ? 0 : 4;
    out.qs[32 * (e / 64) + e % 32] |= static_cast<std::uint8_t>((q[e] & 15) << shift);
  }
}

template <class Block>
void pack_k4_scales(const AffineFit& f, Block& out) {
  ScaleMin sm[8];
  for (int i = 0; i < 8; ++i) sm[i] = {f.scale[i], f.min[i]};
  encode_scale_min_k4(sm, out.scales);
  out.d = f.d.bits;
  out.dmin = f.dmin.bits;
}

}  // namespace

void quantize_block(const float* x, block_q2_K& out) {
  out = {};  // the packers OR bits into zeroed fields
  const AffineFit f = fit_affine(x, 16, 16, 3, 15);
  for (int i = 0; i < 16; ++i) out.scales[i] = static_cast<std::uint8_t>(f.scale[i] | f.min[i] << 4);
  for (int e = 0; e < kQK_K; ++e) {  // 2 bits at pair j of qs[32n + l]
    const int n = e / 128, j = (e % 128) / 32, l = e % 32;
    out.qs[32 * n + l] |= static_cast<std::uint8_t>(f.q[e] << (2 * j));
  }
  out.d = f.d.bits;
  out.dmin = f.dmin.bits;
}

void quantize_block(const float* x, block_q3_K& out) {
  out = {};  // the packers OR bits into zeroed fields
  const SymmetricFit f = fit_symmetric(x, 4, 32);
  std::uint8_t biased[16];
  for (int i = 0; i < 16; ++i) biased[i] = static_cast<std::uint8_t>(f.scale[i] + 32);
  encode_scales_q3_K(biased, out.scales);
  for (int e = 0; e < kQK_K; ++e) {  // stored v = q + 4: low 2 bits in qs, bit 2 in hmask
    const int n = e / 128, j = (e % 128) / 32, l = e % 32;
    const int v = f.q[e] + 4;
    out.qs[32 * n + l] |= static_cast<std::uint8_t>((v & 3) << (2 * j));
    out.hmask[l] |= static_cast<std::uint8_t>(((v >> 2) & 1) << (4 * n + j));
  }
  out.d = f.d.bits;
}

void quantize_block(const float* x, block_q4_K& out) {
  out = {};  // the packers OR bits into zeroed fields
  const AffineFit f = fit_affine(x, 8, 32, 15, 63);
  pack_k4_scales(f, out);
  pack_k4_nibbles(f.q, out);
}

void quantize_block(const float* x, block_q5_K& out) {
  out = {};  // the packers OR bits into zeroed fields
  const AffineFit f = fit_affine(x, 8, 32, 31, 63);
  pack_k4_scales(f, out);
  pack_k4_nibbles(f.q, out);
  for (int e = 0; e < kQK_K; ++e) {  // 5th bit: bit (e/32) of qh[e%32]
    out.qh[e % 32] |= static_cast<std::uint8_t>(((f.q[e] >> 4) & 1) << (e / 32));
  }
}

void quantize_block(const float* x, block_q6_K& out) {
  out = {};  // the packers OR bits into zeroed fields
  const SymmetricFit f = fit_symmetric(x, 32, 128);
  for (int i = 0; i < 16; ++i) out.scales[i] = static_cast<std::int8_t>(f.scale[i]);
  for (int e = 0; e < kQK_K; ++e) {  // stored v = q + 32: low 4 bits in ql, high 2 in qh
    const int n = e / 128, quarter = (e % 128) / 32, l = e % 32;
    const int v = f.q[e] + 32;
    const int shift = quarter < 2 ? 0 : 4;
    out.ql[64 * n + 32 * (quarter & 1) + l] |= static_cast<std::uint8_t>((v & 15) << shift);
    out.qh[32 * n + l] |= static_cast<std::uint8_t>(((v >> 4) & 3) << (2 * quarter));
  }
  out.d = f.d.bits;
}

}  // namespace gridfuzz::formats::gguf::detail
