// Quantizers of the codebook i-quants. Deterministic, simple, not ggml's (ggml searches scales):
//   1. Each scale unit (32 values; 16 for iq2_xs, iq2_s, iq1_m) gets the ideal scale
//      s = (unit amax) / (largest grid magnitude: 43 iq2, 62 iq3, 1.125 iq1); the half super-scale
//      d is chosen so the largest s takes the top sub-scale (15 for 4-bit, 7 for iq1's 3-bit),
//      rounded away from zero; each sub-scale is the nearest one to its s under d.
//   2. Each group (8 values; 4 for iq3) takes the grid point nearest in L2 under that scale, by
//      exhaustive search over the codebook, with the signs of the inputs. Where the signs come
//      from ksigns (iq2_xxs, iq2_xs, iq3_xxs: an even number of minus signs per 8 values), an odd
//      count is repaired by flipping the sign that costs least, jointly with the grid choice, so
//      the result is the nearest valid point. iq1 groups search both delta signs (iq1_s: one delta
//      per 32 values, chosen by the sub-block's total error).
// So an input that is exactly representable (every unit contains its grid end, one unit the top
// sub-scale) comes back bit for bit; the error bound of other inputs is in quantize.cpp.
#include "codebook_blocks.hpp"
#include "quantize_support.hpp"

#if GRIDFUZZ_GGUF_IQ
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <span>
#include <vector>

#include "iq_grids.hpp"

namespace gridfuzz::formats::gguf::detail {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double amax_of(const float* x, int n) {
  double a = 0;
  for (int i = 0; i < n; ++i) a = std::fmax(a, std::fabs(static_cast<double>(x[i])));
  return a;
}

// Sign bits of the inputs: bit j set when x[j] < 0.
std::uint8_t sign_bits(const float* x, int n) {
  unsigned s = 0;
  for (int j = 0; j < n; ++j) s |= (x[j] < 0 ? 1u : 0u) << j;
  return static_cast<std::uint8_t>(s);
}

bool odd(unsigned bits) { return (std::popcount(bits) & 1) != 0; }

// The super-scale and the per-unit sub-scales: value scale of unit u = d * (offset + l_u) * step,
// l_u in [0, top]. Returns d; writes l.
struct ScaleGrid {
  double offset, step;  // iq2: (0.5 + l) / 4; iq3: (0.5 + l) / 2; iq1: (0.5 + l) * 2 = 1 + 2 l
  int top;
};
HalfScale choose_scales(const double* s, int units, ScaleGrid g, int* l) {
  double s_max = 0;
  for (int u = 0; u < units; ++u) s_max = std::fmax(s_max, s[u]);
  const HalfScale d = half_scale_away(s_max / ((g.offset + g.top) * g.step));
  for (int u = 0; u < units; ++u) l[u] = d.value == 0 ? 0 : nearest_in(s[u] / (d.value * g.step) - g.offset, 0, g.top);
  return d;
}

// A codebook decoded once into doubles (the searches below read every point for every group).
struct DecodedGrid {
  unsigned entries;
  int n;  // values per point
  std::vector<double> values;
};
template <class Value>
DecodedGrid decode(unsigned entries, int n, Value value) {
  DecodedGrid g{entries, n, std::vector<double>(static_cast<std::size_t>(entries) * n)};
  for (unsigned e = 0; e < entries; ++e)
    for (int j = 0; j < n; ++j) g.values[static_cast<std::size_t>(e) * n + j] = value(e, j);
  return g;
}
template <class T>
DecodedGrid decode_magnitudes(std::span<const T> grid, int n, int (*value)(std::span<const T>, unsigned, int)) {
  return decode(static_cast<unsigned>(grid.size()), n, [&](unsigned e, int j) { return value(grid, e, j); });
}
// Codebook `table` (n values per point, magnitudes by `value`), decoded on first use.
template <auto table, int n, auto value>
const DecodedGrid& points() {
  static const DecodedGrid g = decode_magnitudes(table(), n, value);
  return g;
}
const DecodedGrid& iq1_points() {
  static const DecodedGrid g = decode(2048, 8, [](unsigned e, int j) { return iq1_grid_value(e, j); });
  return g;
}

// Nearest point of a magnitude grid (n values per point) to |x| under scale db; signs are the
// inputs'. Returns the cost; with `flip_one`, the cost of the best point when exactly one sign must
// differ from the inputs', and which.
struct Choice {
  unsigned index = 0;
  double cost = kInf;
  int flipped = -1;  // element whose sign was flipped, or -1
};
Choice nearest_magnitudes(const float* x, double db, const DecodedGrid& grid, bool flip_one) {
  const int n = grid.n;
  Choice best;
  double a[8];
  for (int j = 0; j < n; ++j) a[j] = std::fabs(static_cast<double>(x[j]));
  const double* point = grid.values.data();
  for (unsigned e = 0; e < grid.entries; ++e, point += n) {
    double cost = 0, cheapest_flip = kInf;
    int flip = -1;
    for (int j = 0; j < n; ++j) {
      const double w = db * point[j];
      cost += (a[j] - w) * (a[j] - w);
      if (flip_one && 4 * a[j] * w < cheapest_flip) {
        cheapest_flip = 4 * a[j] * w;
        flip = j;
      }
    }
    if (flip_one) cost += cheapest_flip;
    if (cost < best.cost) best = {e, cost, flip_one ? flip : -1};
  }
  return best;
}

// One 8-value iq2 group whose signs come from ksigns: its grid index and 7-bit sign index.
struct Iq2Group {
  unsigned index;
  unsigned signs7;
};
Iq2Group iq2_ksigns_group(const float* x, double db, const DecodedGrid& grid) {
  std::uint8_t s = sign_bits(x, 8);
  const Choice c = nearest_magnitudes(x, db, grid, odd(s));
  if (c.flipped >= 0) s ^= static_cast<std::uint8_t>(1u << c.flipped);
  return {c.index, s & 127u};
}

// A family's sub-scale grid and grid end (its largest point magnitude).
struct Codebook {
  ScaleGrid scales;
  double grid_end;
};
// iq2_xxs / iq2_xs / iq2_s share the scale step (0.5 + l) / 4 and the grid end 43.
constexpr Codebook kIq2{{0.5, 0.25, 15}, 43};
constexpr Codebook kIq3{{0.5, 0.5, 15}, 62};
constexpr Codebook kIq1{{0.5, 2.0, 7}, 1.125};  // (1 + 2 l) = 2 * (0.5 + l)

// A 256-value block's scales (step 1 above): the half super-scale d and the sub-scale l of each of
// its Units units.
template <int Units>
struct BlockScales {
  HalfScale d;
  int l[Units];
  ScaleGrid grid;
  // The value scale of unit u.
  double unit(int u) const { return d.value * (grid.offset + l[u]) * grid.step; }
};
template <int Units>
BlockScales<Units> block_scales(const float* x, const Codebook& c) {
  constexpr int unit = 256 / Units;
  double s[Units];
  for (int u = 0; u < Units; ++u) s[u] = amax_of(x + unit * u, unit) / c.grid_end;
  BlockScales<Units> b;
  b.grid = c.scales;
  b.d = choose_scales(s, Units, c.scales, b.l);
  return b;
}

void put_le32(std::uint8_t* p, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) p[k] = static_cast<std::uint8_t>(v >> (8 * k));
}

}  // namespace

void quantize_block(const float* x, block_iq2_xxs& out) {
  const BlockScales<8> sc = block_scales<8>(x, kIq2);
  out.d = sc.d.bits;
  auto* q = reinterpret_cast<std::uint8_t*>(out.qs);
  for (int ib = 0; ib < 8; ++ib) {
    std::uint32_t aux = static_cast<std::uint32_t>(sc.l[ib]) << 28;
    for (int k = 0; k < 4; ++k) {
      const Iq2Group g =
          iq2_ksigns_group(x + 32 * ib + 8 * k, sc.unit(ib), points<iq2xxs_grid_table, 8, iq2_grid_value>());
      q[8 * ib + k] = static_cast<std::uint8_t>(g.index);
      aux |= g.signs7 << (7 * k);
    }
    put_le32(q + 8 * ib + 4, aux);
  }
}

void quantize_block(const float* x, block_iq2_xs& out) {
  const BlockScales<16> sc = block_scales<16>(x, kIq2);
  out.d = sc.d.bits;
  for (int ib = 0; ib < 8; ++ib) {
    out.scales[ib] = static_cast<std::uint8_t>(sc.l[2 * ib] | sc.l[2 * ib + 1] << 4);
    for (int k = 0; k < 4; ++k) {
      const Iq2Group g = iq2_ksigns_group(x + 32 * ib + 8 * k, sc.unit(2 * ib + k / 2),
                                          points<iq2xs_grid_table, 8, iq2_grid_value>());
      out.qs[4 * ib + k] = static_cast<std::uint16_t>(g.index | g.signs7 << 9);
    }
  }
}

void quantize_block(const float* x, block_iq2_s& out) {
  const BlockScales<16> sc = block_scales<16>(x, kIq2);
  out.d = sc.d.bits;
  for (int ib = 0; ib < 8; ++ib) {
    out.scales[ib] = static_cast<std::uint8_t>(sc.l[2 * ib] | sc.l[2 * ib + 1] << 4);
    out.qh[ib] = 0;
    for (int k = 0; k < 4; ++k) {
      const float* g = x + 32 * ib + 8 * k;
      const Choice c =
          nearest_magnitudes(g, sc.unit(2 * ib + k / 2), points<iq2s_grid_table, 8, iq2_grid_value>(), false);
      out.qs[4 * ib + k] = static_cast<std::uint8_t>(c.index);
      out.qh[ib] = static_cast<std::uint8_t>(out.qh[ib] | (c.index >> 8) << (2 * k));
      out.qs[32 + 4 * ib + k] = sign_bits(g, 8);
    }
  }
}

void quantize_block(const float* x, block_iq3_xxs& out) {
  const BlockScales<8> sc = block_scales<8>(x, kIq3);
  out.d = sc.d.bits;
  const DecodedGrid& grid = points<iq3xxs_grid_table, 4, iq3_grid_value>();
  for (int ib = 0; ib < 8; ++ib) {
    const double db = sc.unit(ib);
    std::uint32_t aux = static_cast<std::uint32_t>(sc.l[ib]) << 28;
    for (int k = 0; k < 4; ++k) {  // 8 values: two 4-value grid points under one ksigns index
      const float* g = x + 32 * ib + 8 * k;
      std::uint8_t signs = sign_bits(g, 8);
      Choice lo = nearest_magnitudes(g, db, grid, false);
      Choice hi = nearest_magnitudes(g + 4, db, grid, false);
      if (odd(signs)) {  // one flip, in whichever half it costs least
        const Choice lo_flip = nearest_magnitudes(g, db, grid, true);
        const Choice hi_flip = nearest_magnitudes(g + 4, db, grid, true);
        if (lo_flip.cost + hi.cost <= lo.cost + hi_flip.cost) {
          lo = lo_flip;
          signs ^= static_cast<std::uint8_t>(1u << lo.flipped);
        } else {
          hi = hi_flip;
          signs ^= static_cast<std::uint8_t>(1u << (4 + hi.flipped));
        }
      }
      out.qs[8 * ib + 2 * k] = static_cast<std::uint8_t>(lo.index);
      out.qs[8 * ib + 2 * k + 1] = static_cast<std::uint8_t>(hi.index);
      aux |= static_cast<std::uint32_t>(signs & 127u) << (7 * k);
    }
    put_le32(out.qs + 64 + 4 * ib, aux);
  }
}

void quantize_block(const float* x, block_iq3_s& out) {
  const BlockScales<8> sc = block_scales<8>(x, kIq3);
  out.d = sc.d.bits;
  for (int ib = 0; ib < 8; ++ib) {
    if (ib % 2 == 0) out.scales[ib / 2] = 0;
    out.scales[ib / 2] = static_cast<std::uint8_t>(out.scales[ib / 2] | sc.l[ib] << (4 * (ib % 2)));
    out.qh[ib] = 0;
    for (int k = 0; k < 8; ++k) {
      const float* g = x + 32 * ib + 4 * k;
      const Choice c = nearest_magnitudes(g, sc.unit(ib), points<iq3s_grid_table, 4, iq3_grid_value>(), false);
      out.qs[8 * ib + k] = static_cast<std::uint8_t>(c.index);
      out.qh[ib] = static_cast<std::uint8_t>(out.qh[ib] | (c.index >> 8) << k);
    }
    for (int k = 0; k < 4; ++k) out.signs[4 * ib + k] = sign_bits(x + 32 * ib + 8 * k, 8);
  }
}

namespace {

// Nearest iq1 grid point to an 8-value group under value scale dl and the given delta.
Choice nearest_iq1(const float* x, double dl, double delta) {
  const DecodedGrid& grid = iq1_points();
  const double* point = grid.values.data();
  Choice best;
  for (unsigned e = 0; e < grid.entries; ++e, point += 8) {
    double cost = 0;
    for (int j = 0; j < 8; ++j) {
      const double r = static_cast<double>(x[j]) - dl * (point[j] + delta);
      cost += r * r;
    }
    if (cost < best.cost) best = {e, cost, -1};
  }
  return best;
}

}  // namespace

void quantize_block(const float* x, block_iq1_s& out) {
  const BlockScales<8> sc = block_scales<8>(x, kIq1);
  out.d = sc.d.bits;
  for (int ib = 0; ib < 8; ++ib) {
    const double dl = sc.unit(ib);
    Choice plus[4], minus[4];
    double cost_plus = 0, cost_minus = 0;
    for (int k = 0; k < 4; ++k) {
      plus[k] = nearest_iq1(x + 32 * ib + 8 * k, dl, 0.125);
      minus[k] = nearest_iq1(x + 32 * ib + 8 * k, dl, -0.125);
      cost_plus += plus[k].cost;
      cost_minus += minus[k].cost;
    }
    const bool negative = cost_minus < cost_plus;
    unsigned qh = static_cast<unsigned>(sc.l[ib]) << 12 | (negative ? 0x8000u : 0u);
    for (int k = 0; k < 4; ++k) {
      const unsigned index = negative ? minus[k].index : plus[k].index;
      out.qs[4 * ib + k] = static_cast<std::uint8_t>(index);
      qh |= (index >> 8) << (3 * k);
    }
    out.qh[ib] = static_cast<std::uint16_t>(qh);
  }
}

void quantize_block(const float* x, block_iq1_m& out) {
  const BlockScales<16> sc = block_scales<16>(x, kIq1);
  std::uint16_t packed[4] = {0, 0, 0, 0};
  for (int u = 0; u < 16; ++u) packed[u / 4] = static_cast<std::uint16_t>(packed[u / 4] | sc.l[u] << (3 * (u % 4)));
  for (int k = 0; k < 4; ++k) packed[k] = static_cast<std::uint16_t>(packed[k] | ((sc.d.bits >> (4 * k)) & 15u) << 12);
  for (int k = 0; k < 4; ++k) {
    out.scales[2 * k] = static_cast<std::uint8_t>(packed[k]);
    out.scales[2 * k + 1] = static_cast<std::uint8_t>(packed[k] >> 8);
  }
  std::memset(out.qh, 0, sizeof out.qh);
  for (int g = 0; g < 32; ++g) {  // 8-value group g: sub-block g / 4, 16-value unit g / 2
    const double dl = sc.unit(g / 2);
    const Choice plus = nearest_iq1(x + 8 * g, dl, 0.125), minus = nearest_iq1(x + 8 * g, dl, -0.125);
    const bool negative = minus.cost < plus.cost;
    const unsigned index = negative ? minus.index : plus.index;
    out.qs[g] = static_cast<std::uint8_t>(index);
    const unsigned nibble = (index >> 8) | (negative ? 8u : 0u);
    out.qh[g / 2] = static_cast<std::uint8_t>(out.qh[g / 2] | nibble << (4 * (g % 2)));
  }
}

}  // namespace gridfuzz::formats::gguf::detail
#endif
