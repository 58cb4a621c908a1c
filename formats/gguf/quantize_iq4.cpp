// iq4_nl / iq4_xs: non-linear 4-bit values (iq4nl_value). A 32-value group's scale maps its input
// of largest magnitude exactly onto the table end -127; every other input takes the nearest table
// value under the rounded scale. iq4_xs adds a 6-bit signed sub-scale per 32 values under one half
// super-scale, chosen like q3_K/q6_K (largest sub-scale at the grid end -32).
#include <cmath>

#include "gridfuzz/formats/gguf/scale_packing.hpp"
#include "quantize_support.hpp"

namespace gridfuzz::formats::gguf::detail {
namespace {

// Index of the table value nearest to t (the lower index on a tie).
int nearest_iq4_index(double t) {
  int best = 0;
  for (int k = 1; k < 16; ++k) {
    if (std::fabs(t - iq4nl_value(k)) < std::fabs(t - iq4nl_value(best))) best = k;
  }
  return best;
}

constexpr int kIndexOfSmallestValue = 8;  // iq4nl_value(8) == 1: used when the scale is 0

// 32 values under scale `step`, q4_0 nibble order.
void pack_iq4_group(const float* x, double step, std::uint8_t* qs) {
  int idx[32];
  for (int j = 0; j < 32; ++j) idx[j] = step == 0 ? kIndexOfSmallestValue : nearest_iq4_index(x[j] / step);
  for (int j = 0; j < 16; ++j) qs[j] = static_cast<std::uint8_t>(idx[j] | idx[j + 16] << 4);
}

constexpr int kTableEnd = -127;  // iq4nl_value(0)

}  // namespace

void quantize_block(const float* x, block_iq4_nl& out) {
  const HalfScale d = half_scale_away(signed_extreme(x, 32) / kTableEnd);
  out.d = d.bits;
  pack_iq4_group(x, d.value, out.qs);
}

void quantize_block(const float* x, block_iq4_xs& out) {
  double s[8];
  double s_extreme = 0;
  for (int ib = 0; ib < 8; ++ib) {
    s[ib] = signed_extreme(x + 32 * ib, 32) / kTableEnd;
    if (std::fabs(s[ib]) > std::fabs(s_extreme)) s_extreme = s[ib];
  }
  const HalfScale d = half_scale_away(s_extreme / -32);
  std::uint8_t biased[8];
  for (int ib = 0; ib < 8; ++ib) {
    const int l = d.value == 0 ? 0 : nearest_in(s[ib] / d.value, -32, 31);
    biased[ib] = static_cast<std::uint8_t>(l + 32);
    pack_iq4_group(x + 32 * ib, d.value * l, out.qs + 16 * ib);
  }
  encode_scales_iq4_xs(biased, out.scales_h, out.scales_l);
  out.d = d.bits;
}

}  // namespace gridfuzz::formats::gguf::detail
