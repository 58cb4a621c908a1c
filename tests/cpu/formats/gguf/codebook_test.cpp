// The codebook i-quants (iq1_s, iq1_m, iq2_xxs, iq2_xs, iq2_s, iq3_xxs, iq3_s): the generated
// codebooks against rules they must obey (the ksigns parity rule, the value sets, distinct points),
// hand-built blocks decoded by hand, and the quantizer: any block whose inputs are representable
// (each scale unit holds its grid end, one unit the top sub-scale) comes back bit for bit, which
// pins quantizer and dequantizer to the same reading of every field. Whether that reading is
// upstream's is checked on the GPU (tests/gpu/kernels/vllm: vLLM's kernels against this CPU reference).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "gridfuzz/formats/gguf/blocks.hpp"
#include "gridfuzz/formats/gguf/dequantize.hpp"
#include "gridfuzz/formats/gguf/quant_type_names.hpp"
#include "gridfuzz/formats/gguf/quantize.hpp"

#if GRIDFUZZ_GGUF_IQ
#include "iq_grids.hpp"

namespace gridfuzz::formats::gguf {
namespace {

template <class T>
bool all_distinct(std::span<const T> table) {
  return std::set<T>(table.begin(), table.end()).size() == table.size();
}

TEST(Codebooks, SizesAndDistinctPoints) {
  EXPECT_EQ(iq2xxs_grid_table().size(), 256u);
  EXPECT_EQ(iq2xs_grid_table().size(), 512u);
  EXPECT_EQ(iq2s_grid_table().size(), 1024u);
  EXPECT_EQ(iq3xxs_grid_table().size(), 256u);
  EXPECT_EQ(iq3s_grid_table().size(), 512u);
  EXPECT_EQ(iq1s_grid_table().size(), 2048u);
  EXPECT_EQ(iq2_ksigns_table().size(), 128u);
  EXPECT_TRUE(all_distinct(iq2xxs_grid_table()));
  EXPECT_TRUE(all_distinct(iq2xs_grid_table()));
  EXPECT_TRUE(all_distinct(iq2s_grid_table()));
  EXPECT_TRUE(all_distinct(iq3xxs_grid_table()));
  EXPECT_TRUE(all_distinct(iq3s_grid_table()));
  EXPECT_TRUE(all_distinct(iq1s_grid_table()));
}

// ksigns maps 7 sign bits to 8 with an even number of minus signs: bit 7 is the parity of the
// other seven. Computed here from that rule, compared with the generated table.
TEST(Codebooks, KsignsIsTheEvenParityCompletion) {
  for (unsigned i = 0; i < 128; ++i) {
    const unsigned want = i | (static_cast<unsigned>(std::popcount(i)) & 1u) << 7;
    EXPECT_EQ(iq2_signs(i), want) << i;
  }
}

TEST(Codebooks, ValueSets) {
  const std::set<int> iq2{8, 25, 43};
  for (auto grid : {iq2xxs_grid_table(), iq2xs_grid_table(), iq2s_grid_table()})
    for (unsigned e = 0; e < grid.size(); ++e)
      for (int j = 0; j < 8; ++j) ASSERT_TRUE(iq2.count(iq2_grid_value(grid, e, j))) << e << " " << j;
  const std::set<int> iq3{4, 12, 20, 28, 36, 44, 52, 62};
  for (auto grid : {iq3xxs_grid_table(), iq3s_grid_table()})
    for (unsigned e = 0; e < grid.size(); ++e)
      for (int j = 0; j < 4; ++j) ASSERT_TRUE(iq3.count(iq3_grid_value(grid, e, j))) << e << " " << j;
  for (unsigned e = 0; e < 2048; ++e) {
    // Every nibble of the GPU form is g + 1 in {0, 1, 2}.
    for (int k = 0; k < 8; ++k) ASSERT_LE((iq1s_grid_table()[e] >> (4 * k)) & 15u, 2u) << e;
    for (int j = 0; j < 8; ++j) ASSERT_GE(iq1_grid_value(e, j), -1);
  }
}

std::vector<double> values_of(QuantType t, const void* block) {
  std::vector<double> y(256);
  dequantize_row(t, block, y.data(), 256);
  return y;
}

TEST(CodebookDequantize, Iq2XxsFieldsByHand) {
  block_iq2_xxs b{};
  b.d = 0x3C00;  // 1
  auto* q = reinterpret_cast<std::uint8_t*>(b.qs);
  // Sub-block 1: group 0 is grid point 1 (bytes 43, 8, 8, ...), signs index 1 (ksigns 129:
  // values 0 and 7 negative); group 1 point 0 (all 8), no signs; scale 3: db = 3.5 / 4.
  q[8] = 1;
  const std::uint32_t aux = 3u << 28 | 1u;
  std::memcpy(q + 12, &aux, 4);
  const auto y = values_of(QuantType::iq2_xxs, &b);
  EXPECT_EQ(iq2_grid_value(iq2xxs_grid_table(), 1, 0), 43);
  EXPECT_EQ(y[32], -0.875 * 43);
  for (int j = 33; j < 39; ++j) EXPECT_EQ(y[j], 0.875 * 8) << j;
  EXPECT_EQ(y[39], -0.875 * 8);
  for (int j = 40; j < 64; ++j) EXPECT_EQ(y[j], 0.875 * 8) << j;
  EXPECT_EQ(y[0], 0.125 * 8);  // scale 0: db = 0.5 / 4
}

TEST(CodebookDequantize, Iq3SFieldsByHand) {
  block_iq3_s b{};
  b.d = 0x4000;  // 2
  // Sub-block 3: scale 5 (high nibble of scales[1]) -> db = 2 * 5.5 / 2 = 5.5; group 1 takes grid
  // index 256 + qs[25] through bit 1 of qh[3]; sign bit 4 of signs[12] negates its first value.
  b.scales[1] = 5 << 4;
  b.qs[25] = 7;
  b.qh[3] = 2;
  b.signs[12] = 0x10;
  const auto y = values_of(QuantType::iq3_s, &b);
  for (int j = 0; j < 4; ++j) {
    const double g = iq3_grid_value(iq3s_grid_table(), 256 + 7, j);
    EXPECT_EQ(y[96 + 4 + j], 5.5 * g * (j == 0 ? -1 : 1)) << j;
    EXPECT_EQ(y[96 + j], 5.5 * iq3_grid_value(iq3s_grid_table(), 0, j)) << j;
  }
}

TEST(CodebookDequantize, Iq1SFieldsByHand) {
  block_iq1_s b{};
  b.d = 0x3800;  // 0.5
  // Sub-block 2: scale 5 (dl = 0.5 * 11), delta negative, group 1 takes index 256 + qs[9].
  b.qh[2] = static_cast<std::uint16_t>(5u << 12 | 0x8000u | 1u << 3);
  b.qs[9] = 3;
  const auto y = values_of(QuantType::iq1_s, &b);
  for (int j = 0; j < 8; ++j) {
    EXPECT_EQ(y[64 + 8 + j], 5.5 * (iq1_grid_value(259, j) - 0.125)) << j;
    EXPECT_EQ(y[64 + j], 5.5 * (iq1_grid_value(0, j) - 0.125)) << j;
    EXPECT_EQ(y[j], 0.5 * (iq1_grid_value(0, j) + 0.125)) << j;
  }
}

TEST(CodebookDequantize, Iq1MFieldsByHand) {
  block_iq1_m b{};
  // Super-scale 1.0 = 0x3C00 spread as nibbles 0, 0, C, 3 over bits 12-15 of the four words;
  // 16-value unit 5 (word 1, bits 3-5) scale 2 -> dl = 5; group 11 (unit 5, high nibble of qh[5])
  // negative delta and index bits 8-10 = 4.
  const std::uint16_t sc[4] = {0x0000, static_cast<std::uint16_t>(2u << 3), 0xC000, 0x3000};
  std::memcpy(b.scales, sc, 8);
  b.qh[5] = static_cast<std::uint8_t>((8u | 4u) << 4);
  b.qs[11] = 1;
  const auto y = values_of(QuantType::iq1_m, &b);
  for (int j = 0; j < 8; ++j) {
    EXPECT_EQ(y[88 + j], 5.0 * (iq1_grid_value(1025, j) - 0.125)) << j;
    EXPECT_EQ(y[80 + j], 5.0 * (iq1_grid_value(0, j) + 0.125)) << j;
    EXPECT_EQ(y[j], 1.0 * (iq1_grid_value(0, j) + 0.125)) << j;
  }
}

// --- representable blocks round-trip ---------------------------------------------------------

// First grid point holding the value `end` (iq2: 43, iq3: 62); for iq1 one holding both -1 and 1.
template <class T>
unsigned point_with(std::span<const T> grid, int end, int n, int (*value)(std::span<const T>, unsigned, int)) {
  for (unsigned e = 0; e < grid.size(); ++e)
    for (int j = 0; j < n; ++j)
      if (value(grid, e, j) == end) return e;
  return 0;
}
unsigned iq1_point_with_both_ends() {
  for (unsigned e = 0; e < 2048; ++e) {
    bool lo = false, hi = false;
    for (int j = 0; j < 8; ++j) lo |= iq1_grid_value(e, j) == -1, hi |= iq1_grid_value(e, j) == 1;
    if (lo && hi) return e;
  }
  return 0;
}

// A random block of type t made representable (see the file comment), its super-scale a normal half.
std::vector<std::uint8_t> representable_block(QuantType t) {
  std::vector<std::uint8_t> b = *rc::gen::container<std::vector<std::uint8_t>>(quant_traits(t).block_bytes,
                                                                               rc::gen::arbitrary<std::uint8_t>());
  const std::uint16_t d = static_cast<std::uint16_t>(*rc::gen::inRange(0x2000, 0x3C01));  // 2^-7 .. 1
  const unsigned e2xxs = point_with(iq2xxs_grid_table(), 43, 8, iq2_grid_value);
  const unsigned e2xs = point_with(iq2xs_grid_table(), 43, 8, iq2_grid_value);
  const unsigned e2s = point_with(iq2s_grid_table(), 43, 8, iq2_grid_value);
  const unsigned e3xxs = point_with(iq3xxs_grid_table(), 62, 4, iq3_grid_value);
  const unsigned e3s = point_with(iq3s_grid_table(), 62, 4, iq3_grid_value);
  const unsigned e1 = iq1_point_with_both_ends();
  std::uint8_t* p = b.data();
  auto put16 = [](std::uint8_t* at, unsigned v) { at[0] = static_cast<std::uint8_t>(v), at[1] = static_cast<std::uint8_t>(v >> 8); };
  switch (t) {
    case QuantType::iq2_xxs:  // unit 32: group 0 of each sub-block; top scale in sub-block 0
      put16(p, d);
      for (int ib = 0; ib < 8; ++ib) p[2 + 8 * ib] = static_cast<std::uint8_t>(e2xxs);
      p[2 + 7] |= 0xF0;
      break;
    case QuantType::iq2_xs:  // unit 16: groups 0 and 2 of each sub-block; qs word = index | signs << 9
      put16(p, d);
      for (int g = 0; g < 32; g += 2) {
        std::uint8_t* w = p + 2 + 2 * g;
        put16(w, (static_cast<unsigned>(w[0] | w[1] << 8) & ~511u) | e2xs);
      }
      p[66] |= 0x0F;
      break;
    case QuantType::iq2_s:  // unit 16: groups 0 and 2; index high bits in qh
      put16(p, d);
      for (int g = 0; g < 32; g += 2) {
        p[2 + g] = static_cast<std::uint8_t>(e2s);
        std::uint8_t& qh = p[66 + g / 4];
        qh = static_cast<std::uint8_t>((qh & ~(3u << (2 * (g % 4)))) | (e2s >> 8) << (2 * (g % 4)));
      }
      p[74] |= 0x0F;
      break;
    case QuantType::iq3_xxs:  // unit 32: group 0 of each sub-block
      put16(p, d);
      for (int ib = 0; ib < 8; ++ib) p[2 + 8 * ib] = static_cast<std::uint8_t>(e3xxs);
      p[2 + 64 + 3] |= 0xF0;
      break;
    case QuantType::iq3_s:  // unit 32: group 0 of each sub-block (qh bit 0)
      put16(p, d);
      for (int ib = 0; ib < 8; ++ib) {
        p[2 + 8 * ib] = static_cast<std::uint8_t>(e3s);
        p[66 + ib] = static_cast<std::uint8_t>((p[66 + ib] & ~1u) | (e3s >> 8));
      }
      p[106] |= 0x0F;
      break;
    case QuantType::iq1_s:  // unit 32: group 0 of each sub-block (qh bits 0-2)
      put16(p, d);
      for (int ib = 0; ib < 8; ++ib) {
        p[2 + 4 * ib] = static_cast<std::uint8_t>(e1);
        std::uint8_t* qh = p + 34 + 2 * ib;
        put16(qh, (static_cast<unsigned>(qh[0] | qh[1] << 8) & ~7u) | (e1 >> 8));
      }
      p[35] |= 0x70;  // sub-block 0 scale 7 (bits 12-14 of qh[0])
      break;
    case QuantType::iq1_m: {  // unit 16: groups 0 and 2 of each sub-block (low nibble of qh)
      for (int g = 0; g < 32; g += 2) {
        p[g] = static_cast<std::uint8_t>(e1);
        p[32 + g / 2] = static_cast<std::uint8_t>((p[32 + g / 2] & ~7u) | (e1 >> 8));
      }
      for (int k = 0; k < 4; ++k) {
        std::uint8_t* w = p + 48 + 2 * k;
        put16(w, (static_cast<unsigned>(w[0] | w[1] << 8) & 0x0FFFu) | ((d >> (4 * k)) & 15u) << 12);
      }
      p[48] |= 7;  // unit 0 scale 7
      break;
    }
    default: break;
  }
  return b;
}

RC_GTEST_PROP(CodebookQuantize, RepresentableBlocksComeBackExactly, ()) {
  for (QuantType t : {QuantType::iq2_xxs, QuantType::iq2_xs, QuantType::iq2_s, QuantType::iq3_xxs, QuantType::iq3_s,
                      QuantType::iq1_s, QuantType::iq1_m}) {
    const auto block = representable_block(t);
    std::vector<double> y(256);
    dequantize_row(t, block.data(), y.data(), 256);
    std::vector<float> x(y.begin(), y.end());  // exact: halves times small integers
    for (int j = 0; j < 256; ++j) RC_ASSERT(static_cast<double>(x[j]) == y[j]);
    std::vector<std::uint8_t> again(quant_traits(t).block_bytes);
    quantize_row(t, x.data(), again.data(), 256);
    std::vector<double> back(256);
    dequantize_row(t, again.data(), back.data(), 256);
    for (int j = 0; j < 256; ++j) {
      if (back[j] != y[j])
        RC_FAIL(std::string(to_string(t)) + " value " + std::to_string(j) + ": " + std::to_string(y[j]) + " came back as " +
                std::to_string(back[j]));
    }
  }
}

// An odd number of negative inputs in an 8-value ksigns group cannot be stored: the quantizer
// must still produce a valid block, and flip exactly one sign (the cheapest) of such a group.
TEST(CodebookQuantize, OddSignCountFlipsTheCheapestSign) {
  std::vector<float> x(256, 1.0f);
  x[3] = -0.01f;  // group 0: one negative input, the smallest: flipping it costs least
  x[8] = -1.0f;   // group 1: also odd; all magnitudes equal except x[15]
  x[15] = 0.02f;
  for (QuantType t : {QuantType::iq2_xxs, QuantType::iq2_xs}) {
    std::vector<std::uint8_t> b(quant_traits(t).block_bytes);
    quantize_row(t, x.data(), b.data(), 256);
    std::vector<double> y(256);
    dequantize_row(t, b.data(), y.data(), 256);
    EXPECT_GT(y[3], 0) << to_string(t);
    EXPECT_LT(y[8], 0) << to_string(t);
    EXPECT_LT(y[15], 0) << to_string(t);  // the cheapest flip of group 1
  }
}

}  // namespace
}  // namespace gridfuzz::formats::gguf
#endif
