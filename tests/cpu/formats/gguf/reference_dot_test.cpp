// reference_dot against a separately computed dequantize-then-dot, a hand-computed case, and
// the GPU tolerances against an fp32 simulation of the moe_vec dot
// (docs/KERNELS.md, "GGUF dot product", "vLLM moe_vec" for the lane mapping) for the 32-value
// types.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "gguf_test_data.hpp"
#include "gridfuzz/formats/gguf/blocks.hpp"
#include "gridfuzz/formats/gguf/dequantize.hpp"
#include "gridfuzz/formats/gguf/fp16.hpp"
#include "gridfuzz/formats/gguf/quant_type_names.hpp"
#include "gridfuzz/formats/gguf/quantize.hpp"
#include "gridfuzz/formats/gguf/quantize_q8_1.hpp"
#include "gridfuzz/formats/gguf/reference_dot.hpp"

namespace gridfuzz::formats::gguf {
namespace {

float from_half(std::uint16_t bits) { return static_cast<float>(std::bit_cast<_Float16>(bits)); }

struct Row {
  std::vector<std::uint8_t> weights;
  std::vector<block_q8_1> act;
};

Row make_row(QuantType t, const std::vector<float>& w, const std::vector<float>& x) {
  Row r{std::vector<std::uint8_t>(quant_row_bytes(t, w.size())), std::vector<block_q8_1>(q8_1_blocks_per_row(x.size()))};
  quantize_row(t, w.data(), r.weights.data(), w.size());
  quantize_row_q8_1(x.data(), x.size(), r.act.data());
  return r;
}

TEST(ReferenceDot, HandComputed) {
  block_q8_0 w{};
  w.d = 0x3800;                                                   // 0.5: w_j = 0.5 * (j - 16)
  for (int j = 0; j < 32; ++j) w.qs[j] = static_cast<std::int8_t>(j - 16);
  std::vector<block_q8_1> x(16);                                  // a padded 512-column row
  x[0].d = 0x3400;                                                // 0.25: x_j = 0.25 * 2 = 0.5
  for (int j = 0; j < 32; ++j) x[0].qs[j] = 2;
  // sum_j 0.5 (j - 16) * 0.5 = 0.25 * (496 - 512) = -4
  EXPECT_EQ(reference_dot(QuantType::q8_0, &w, x.data(), 32), -4.0);
}

// vLLM's q4_1 dot rounds d*d8 and m*s8 to fp16: the bound is 2^-11 of each product (times the
// block's |sumi| for d*d8), 2^-25 for a product below fp16's normal range, 0 for other types.
TEST(ReferenceDot, Fp16ScaleProductBoundIsTheHalfRoundingOfEachProduct) {
  block_q4_1 w{};
  w.d = 0x3800;                // 0.5
  w.m = 0xBC00;                // -1
  std::memset(w.qs, 0x33, 16);  // every nibble 3
  std::vector<block_q8_1> x(16);
  x[0].d = 0x3400;             // 0.25
  for (int j = 0; j < 32; ++j) x[0].qs[j] = 2;
  x[0].s = 0x5000;             // 32
  const double sumi = 32 * 3 * 2;
  const double expected = std::ldexp(0.5 * 0.25, -11) * sumi + std::ldexp(1.0 * 32, -11);
  EXPECT_DOUBLE_EQ(fp16_scale_product_error_bound(QuantType::q4_1, &w, x.data(), 32), expected);
  x[0].d = 0x0400;             // 2^-14: d*d8 = 2^-15 lies below the normal range
  const double tiny = std::ldexp(1.0, -25) * sumi + std::ldexp(1.0 * 32, -11);
  EXPECT_DOUBLE_EQ(fp16_scale_product_error_bound(QuantType::q4_1, &w, x.data(), 32), tiny);
  block_q4_0 w0{};
  w0.d = 0x3800;
  EXPECT_EQ(fp16_scale_product_error_bound(QuantType::q4_0, &w0, x.data(), 32), 0.0);
}

TEST(ReferenceDot, ViaSumsUsesTheStoredS) {
  // q4_0 block, all nibbles 9 and d = 1: w = 1 everywhere, unsigned part 9, offset -8.
  block_q4_0 w{};
  w.d = 0x3C00;
  std::memset(w.qs, 0x99, 16);
  std::vector<block_q8_1> x(16);
  x[0].d = 0x3C00;  // x = q = 1 everywhere -> reference_dot = 32
  for (int j = 0; j < 32; ++j) x[0].qs[j] = 1;
  x[0].s = 0x4FE0;  // pretend the original floats summed to 31.5 (= 1.96875 * 16)
  EXPECT_EQ(reference_dot(QuantType::q4_0, &w, x.data(), 32), 32.0);
  // via sums: 9 * 32 - 8 * 31.5 = 288 - 252 = 36
  EXPECT_EQ(reference_dot_via_q8_1_sums(QuantType::q4_0, &w, x.data(), 32), 36.0);
}

RC_GTEST_PROP(ReferenceDot, EqualsNaiveDequantizeThenDot, ()) {
  const auto cols = 256 * *rc::gen::inRange<std::size_t>(1, 5);
  const auto w = *testing::gen_row(cols);
  const auto x = *testing::gen_row(cols);
  for (QuantType t : weight_quant_types()) {
    const Row r = make_row(t, w, x);
    std::vector<double> wd(cols);
    dequantize_row(t, r.weights.data(), wd.data(), cols);
    double naive = 0;
    for (std::size_t c = 0; c < cols; ++c) {
      const block_q8_1& b = r.act[c / 32];
      naive += wd[c] * (static_cast<double>(b.qs[c % 32]) * static_cast<double>(from_half(b.d)));
    }
    RC_ASSERT(reference_dot(t, r.weights.data(), r.act.data(), cols) == naive);
    if (!folds_offset_through_q8_1_sum(t)) {
      RC_ASSERT(reference_dot_via_q8_1_sums(t, r.weights.data(), r.act.data(), cols) == naive);
    }
  }
}

// --- fp32 simulation of the GPU dot for the 32-value weight types -------------------------

// Integer quants the kernel multiplies with the q8_1 quants: unsigned nibble (+16) for q4/q5
// formats, signed int8 for q8_0, table values for iq4_nl.
int weight_quant(QuantType t, const std::uint8_t* block, int j) {
  auto nibble = [](const std::uint8_t* qs, int j) { return j < 16 ? (qs[j] & 15) : (qs[j - 16] >> 4); };
  auto fifth = [](const std::uint8_t* qh, int j) { return (qh[j / 8] >> (j % 8)) & 1; };
  switch (t) {
    case QuantType::q4_0: return nibble(block + 2, j);
    case QuantType::q4_1: return nibble(block + 4, j);
    case QuantType::q5_0: return nibble(block + 6, j) | fifth(block + 2, j) << 4;
    case QuantType::q5_1: return nibble(block + 8, j) | fifth(block + 4, j) << 4;
    case QuantType::q8_0: return static_cast<std::int8_t>(block[2 + j]);
    case QuantType::iq4_nl: return iq4nl_value(static_cast<unsigned>(nibble(block + 2, j)));
    default: return 0;
  }
}

float simulated_gpu_dot(QuantType t, const std::uint8_t* weights, const block_q8_1* act, std::size_t cols) {
  const QuantTraits tr = quant_traits(t);
  const int lanes_per = static_cast<int>(lanes_per_block(t));
  const std::size_t per_warp = blocks_per_warp(t);
  const int values_per_lane = 32 / lanes_per;
  float lane[32] = {};
  for (int l = 0; l < 32; ++l) {
    for (std::size_t i = static_cast<std::size_t>(l / lanes_per); i < cols / 32; i += per_warp) {
      const std::uint8_t* blk = weights + i * tr.block_bytes;
      const int first = (l % lanes_per) * values_per_lane;
      int sumi = 0;
      for (int j = first; j < first + values_per_lane; ++j) sumi += weight_quant(t, blk, j) * act[i].qs[j];
      std::uint16_t dbits, mbits = 0;
      std::memcpy(&dbits, blk, 2);
      if (t == QuantType::q4_1 || t == QuantType::q5_1) std::memcpy(&mbits, blk + 2, 2);
      const float d = from_half(dbits), m = from_half(mbits);
      const float d8 = from_half(act[i].d), s8 = from_half(act[i].s);
      const float share = 1.0f / static_cast<float>(lanes_per);  // each lane takes its share of s
      float term = 0;
      switch (t) {
        case QuantType::q4_0: term = d * (static_cast<float>(sumi) * d8 - (8.0f * share) * s8); break;
        case QuantType::q5_0: term = d * (static_cast<float>(sumi) * d8 - (16.0f * share) * s8); break;
        case QuantType::q4_1:
        case QuantType::q5_1: term = static_cast<float>(sumi) * (d * d8) + (m * s8) * share; break;
        default: term = d * d8 * static_cast<float>(sumi); break;
      }
      lane[l] += term;
    }
  }
  for (int mask = 16; mask >= 1; mask /= 2) {
    float next[32];
    for (int l = 0; l < 32; ++l) next[l] = lane[l] + lane[l ^ mask];
    std::memcpy(lane, next, sizeof lane);
  }
  return lane[0];
}

RC_GTEST_PROP(ReferenceDot, SimulatedGpuIsWithinBothTolerances, ()) {
  const auto cols = 32 * *rc::gen::inRange<std::size_t>(1, 160);
  const auto w = *testing::gen_row(cols);
  const auto x = *testing::gen_row(cols);
  for (QuantType t : {QuantType::q4_0, QuantType::q4_1, QuantType::q5_0, QuantType::q5_1, QuantType::q8_0,
                      QuantType::iq4_nl}) {
    const Row r = make_row(t, w, x);
    const double gpu = simulated_gpu_dot(t, r.weights.data(), r.act.data(), cols);
    const double loose = reference_dot(t, r.weights.data(), r.act.data(), cols);
    const double tight = reference_dot_via_q8_1_sums(t, r.weights.data(), r.act.data(), cols);
    RC_ASSERT(std::fabs(gpu - loose) <= gpu_dot_tolerance(t, r.weights.data(), r.act.data(), cols));
    RC_ASSERT(std::fabs(gpu - tight) <= gpu_dot_tolerance_via_q8_1_sums(t, r.weights.data(), r.act.data(), cols));
  }
}

TEST(ReferenceDot, OffsetThroughSIsWhatTheLooseBoundCovers) {
  // q4_0 weights that are all zero (nibble 8), activations all positive: reference_dot is exactly
  // 0, the kernel form is sum_b 8d*(d8*sum q - s8) != 0 -- inside the loose bound, and equal to the
  // via-sums reference up to fp32.
  const std::size_t cols = 1024;
  std::vector<block_q4_0> w(cols / 32);
  for (auto& b : w) {
    b.d = 0x3C00;
    std::memset(b.qs, 0x88, 16);
  }
  std::vector<float> x(cols);
  for (std::size_t c = 0; c < cols; ++c) x[c] = 0.3f + 0.0137f * static_cast<float>(c % 29);
  std::vector<block_q8_1> act(q8_1_blocks_per_row(cols));
  quantize_row_q8_1(x.data(), cols, act.data());
  const auto* wb = reinterpret_cast<const std::uint8_t*>(w.data());
  EXPECT_EQ(reference_dot(QuantType::q4_0, w.data(), act.data(), cols), 0.0);
  const double gpu = simulated_gpu_dot(QuantType::q4_0, wb, act.data(), cols);
  EXPECT_NE(gpu, 0.0);
  EXPECT_LE(std::fabs(gpu), gpu_dot_tolerance(QuantType::q4_0, w.data(), act.data(), cols));
  EXPECT_NEAR(gpu, reference_dot_via_q8_1_sums(QuantType::q4_0, w.data(), act.data(), cols),
              gpu_dot_tolerance_via_q8_1_sums(QuantType::q4_0, w.data(), act.data(), cols));
}

TEST(ReferenceDot, TightToleranceSeparatesNeighbouringRows) {
  // The tight check must tell apart two different weight rows' dots (a wrong-row bug).
  const std::size_t cols = 4096;
  std::uint32_t state = 12345;
  auto uniform = [&state] {  // LCG in [-1, 1): deterministic, uncorrelated rows
    state = state * 1664525u + 1013904223u;
    return static_cast<float>(state >> 8) * 0x1p-23f - 1.0f;
  };
  std::vector<float> w0(cols), w1(cols), x(cols);
  for (std::size_t c = 0; c < cols; ++c) w0[c] = uniform(), w1[c] = uniform(), x[c] = uniform();
  for (QuantType t : weight_quant_types()) {
    const Row r0 = make_row(t, w0, x), r1 = make_row(t, w1, x);
    const double a = reference_dot_via_q8_1_sums(t, r0.weights.data(), r0.act.data(), cols);
    const double b = reference_dot_via_q8_1_sums(t, r1.weights.data(), r1.act.data(), cols);
    EXPECT_GT(std::fabs(a - b), 10 * gpu_dot_tolerance_via_q8_1_sums(t, r0.weights.data(), r0.act.data(), cols))
        << to_string(t);
  }
}

TEST(ReferenceDot, BoundsPerType) {
  // fp32 part: (16 + 5 + ceil(blocks / blocks_per_warp)) * 1.01 * 2^-24.
  const double u = std::ldexp(1.0, -24);
  EXPECT_DOUBLE_EQ(gpu_dot_fp32_relative_bound(QuantType::q4_0, 4096), 1.01 * (21 + 8) * u);  // 128 blocks / 16
  EXPECT_DOUBLE_EQ(gpu_dot_fp32_relative_bound(QuantType::q6_K, 4096), 1.01 * (21 + 16) * u); // 16 blocks / 1
  EXPECT_DOUBLE_EQ(gpu_dot_relative_bound(QuantType::q8_0, 4096), gpu_dot_fp32_relative_bound(QuantType::q8_0, 4096));
  EXPECT_DOUBLE_EQ(gpu_dot_relative_bound(QuantType::q4_1, 4096),
                   gpu_dot_fp32_relative_bound(QuantType::q4_1, 4096) + 0.005);
  EXPECT_DOUBLE_EQ(gpu_dot_relative_bound(QuantType::q4_K, 4096),
                   gpu_dot_fp32_relative_bound(QuantType::q4_K, 4096) + 0.005);  // conservative
  EXPECT_DOUBLE_EQ(gpu_dot_relative_bound(QuantType::q2_K, 4096), gpu_dot_fp32_relative_bound(QuantType::q2_K, 4096));
}

// --- the bounds for a kernel of one's own (docs/PLUGINS.md, "The formats library") ----------
// A kernel that takes a block's offset inside its integer dot (never through s) is within the fp32
// bounds of reference_dot itself: with one lane per block and a butterfly over the 32 lanes
// (examples/gguf_plugin; fewer terms a lane than the bound's lane mapping) or with one thread
// summing every block in turn (gpu_dot_fp32_serial_bound). Simulated here in fp32, block term
// (d * d8) * sumi, for the types whose offset is an integer (q4_0: -8, q5_0: -16, q8_0, iq4_nl: 0).
float own_kernel_dot(QuantType t, const std::uint8_t* weights, const block_q8_1* act, std::size_t cols, bool serial) {
  const int offset = t == QuantType::q4_0 ? 8 : t == QuantType::q5_0 ? 16 : 0;
  float lane[32] = {};
  for (std::size_t i = 0; i < cols / 32; ++i) {
    const std::uint8_t* blk = weights + i * quant_traits(t).block_bytes;
    int sumi = 0;
    for (int j = 0; j < 32; ++j) sumi += (weight_quant(t, blk, j) - offset) * act[i].qs[j];
    std::uint16_t dbits;
    std::memcpy(&dbits, blk, 2);
    lane[serial ? 0 : i % 32] += (from_half(dbits) * from_half(act[i].d)) * static_cast<float>(sumi);
  }
  if (serial) return lane[0];
  for (int mask = 16; mask >= 1; mask /= 2) {
    float next[32];
    for (int l = 0; l < 32; ++l) next[l] = lane[l] + lane[l ^ mask];
    std::memcpy(lane, next, sizeof lane);
  }
  return lane[0];
}

RC_GTEST_PROP(ReferenceDot, AKernelWithTheOffsetInItsIntegerDotIsWithinTheFp32Bounds, ()) {
  const auto cols = 32 * *rc::gen::inRange<std::size_t>(1, 400);
  const auto w = *testing::gen_row(cols);
  const auto x = *testing::gen_row(cols);
  for (QuantType t : {QuantType::q4_0, QuantType::q5_0, QuantType::q8_0, QuantType::iq4_nl}) {
    const Row r = make_row(t, w, x);
    const double exact = reference_dot(t, r.weights.data(), r.act.data(), cols);
    const double m = reference_dot_magnitude(t, r.weights.data(), r.act.data(), cols);
    const double warp = own_kernel_dot(t, r.weights.data(), r.act.data(), cols, false);
    const double serial = own_kernel_dot(t, r.weights.data(), r.act.data(), cols, true);
    RC_ASSERT(std::fabs(warp - exact) <= gpu_dot_fp32_relative_bound(t, cols) * m + 1e-30);
    RC_ASSERT(std::fabs(serial - exact) <= gpu_dot_fp32_serial_bound(t, cols) * m + 1e-30);
  }
}

// M for a type without offset (q8_0) is the dot of the magnitudes: what fp32 rounding of the
// products and their sums is relative to. With an offset it is larger (reference_dot.hpp).
TEST(ReferenceDot, MagnitudeIsTheDotOfMagnitudesWithoutAnOffset) {
  const std::size_t cols = 1024;
  std::vector<float> w(cols), x(cols);
  for (std::size_t c = 0; c < cols; ++c) {
    w[c] = std::sin(0.37f * static_cast<float>(c));
    x[c] = std::cos(0.11f * static_cast<float>(c)) - 0.25f;
  }
  std::vector<double> wd(cols), xd(cols);
  for (QuantType t : {QuantType::q8_0, QuantType::q4_0}) {
    const Row r = make_row(t, w, x);
    dequantize_row(t, r.weights.data(), wd.data(), cols);
    dequantize_row(QuantType::q8_1, r.act.data(), xd.data(), cols);
    double abs_dot = 0;
    for (std::size_t c = 0; c < cols; ++c) abs_dot += std::fabs(wd[c]) * std::fabs(xd[c]);
    const double m = reference_dot_magnitude(t, r.weights.data(), r.act.data(), cols);
    if (t == QuantType::q8_0) {
      EXPECT_NEAR(m, abs_dot, 1e-12 * abs_dot);
    } else {
      EXPECT_GT(m, abs_dot) << "q4_0's offset -8d adds to M";
    }
  }
}

TEST(ReferenceDot, SerialBound) {
  // One thread: two roundings a block (its product, the add) plus the 21 of the warp bound.
  const double u = std::ldexp(1.0, -24);
  EXPECT_DOUBLE_EQ(gpu_dot_fp32_serial_bound(QuantType::q4_0, 4096), 1.01 * (21 + 2 * 128) * u);
  EXPECT_DOUBLE_EQ(gpu_dot_fp32_serial_bound(QuantType::q4_K, 4096), 1.01 * (21 + 2 * 16) * u);
}

TEST(ReferenceDot, RejectsBadArguments) {
  std::vector<block_q8_1> act(16);
  std::vector<std::uint8_t> w(1024);
  EXPECT_THROW(reference_dot(QuantType::q8_1, w.data(), act.data(), 32), std::invalid_argument);
  EXPECT_THROW(reference_dot(QuantType::q4_K, w.data(), act.data(), 32), std::invalid_argument);
}

}  // namespace
}  // namespace gridfuzz::formats::gguf

namespace gridfuzz::formats::gguf {
namespace {

// fast_division_q8_1_error_bound (llama.cpp's -use_fast_math quantizer): with amax = 127 the scale
// is exactly 1, so x/d = x: 2.5 is a tie point of roundf (either 2 or 3 on a GPU dividing within
// 2 ulp), 2.5 + 2^-17 is farther than 2^-20 * 2.5 from it and rounds to 3 on both. The bound is
// the weight of the one ambiguous element times the block's scale.
TEST(FastDivisionQ8_1, OnlyElementsNearATiePointAndScalesNearAHalfBoundaryAreAmbiguous) {
  EXPECT_TRUE(fast_division_q8_1_quant_ambiguous(2.5f, 1.0f));
  EXPECT_TRUE(fast_division_q8_1_quant_ambiguous(-2.5f, 1.0f));
  EXPECT_FALSE(fast_division_q8_1_quant_ambiguous(2.5f + 0x1p-17f, 1.0f));
  EXPECT_FALSE(fast_division_q8_1_quant_ambiguous(3.0f, 1.0f));
  EXPECT_FALSE(fast_division_q8_1_quant_ambiguous(127.0f, 1.0f));
  EXPECT_TRUE(fast_division_q8_1_quant_ambiguous(1e-39f, 1.0f));  // subnormal x: ftz flushes it
  EXPECT_FALSE(fast_division_q8_1_scale_ambiguous(1.0f));
  EXPECT_TRUE(fast_division_q8_1_scale_ambiguous(1.0f + 0x1p-11f));  // halfway between two halves

  std::vector<float> x(32, 3.0f);
  x[0] = 127.0f;
  x[1] = 2.5f;
  x[2] = 2.5f + 0x1p-17f;
  block_q8_0 w{};
  w.d = 0x3C00;  // 1: w_j = j - 16
  for (int j = 0; j < 32; ++j) w.qs[j] = static_cast<std::int8_t>(j - 16);
  std::vector<block_q8_1> act(q8_1_blocks_per_row(32));  // padded to 512 columns
  quantize_row_q8_1(x.data(), 32, act.data());
  EXPECT_EQ(fast_division_q8_1_error_bound(QuantType::q8_0, &w, x.data(), act.data(), 32), 15.0);  // |w_1| * 1
  x[1] = 2.0f;
  quantize_row_q8_1(x.data(), 32, act.data());
  EXPECT_EQ(fast_division_q8_1_error_bound(QuantType::q8_0, &w, x.data(), act.data(), 32), 0.0);
}

// The bound against a quantizer that divides as badly as div.approx.f32 may (2 ulp in d and in
// x/d, here at the extremes +-2^-22 chosen at random): on rows full of near-ties, where such a
// quantizer really rounds otherwise, the dot on its q8_1 stays within the bound of the dot on
// quantize_row_q8_1's, for symmetric, offset and K-quant weights.
TEST(FastDivisionQ8_1, BoundCoversAQuantizerDividingWithinTwoUlp) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> unit(0, 1);
  const std::size_t cols = 256;
  std::size_t flips = 0;
  for (QuantType t : {QuantType::q8_0, QuantType::q4_0, QuantType::q4_K, QuantType::q6_K, QuantType::iq4_xs}) {
    for (int trial = 0; trial < 200; ++trial) {
      std::vector<float> wf(cols), x(cols);
      for (float& v : wf) v = static_cast<float>(unit(rng) * 2 - 1);
      for (std::size_t b = 0; b < cols / 32; ++b) {
        const double amax = 0.25 + unit(rng);
        const double d = amax / 127;
        x[b * 32] = static_cast<float>(amax);
        for (std::size_t j = 1; j < 32; ++j) {  // (k + 1/2) * d, rounded to float: a near-tie
          const double k = std::floor(unit(rng) * 126) + 0.5;
          x[b * 32 + j] = static_cast<float>((unit(rng) < 0.5 ? -k : k) * d);
        }
      }
      std::vector<std::uint8_t> w(quant_row_bytes(t, cols));
      quantize_row(t, wf.data(), w.data(), cols);
      std::vector<block_q8_1> cpu(q8_1_blocks_per_row(cols)), gpu;
      quantize_row_q8_1(x.data(), cols, cpu.data());
      gpu = cpu;
      for (std::size_t b = 0; b < cols / 32; ++b) {
        const float amax = x[b * 32];
        const float d = static_cast<float>(amax / 127.0 * (1 + (rng() % 2 ? 0x1p-22 : -0x1p-22)));
        gpu[b].d = float_to_half_bits(d);
        for (std::size_t j = 0; j < 32; ++j) {
          const double v = static_cast<double>(x[b * 32 + j]) / d * (1 + (rng() % 2 ? 0x1p-22 : -0x1p-22));
          gpu[b].qs[j] = static_cast<std::int8_t>(std::clamp(std::round(v), -127.0, 127.0));
          flips += gpu[b].qs[j] != cpu[b].qs[j];
        }
      }
      const double diff = std::fabs(reference_dot_via_q8_1_sums(t, w.data(), gpu.data(), cols) -
                                    reference_dot_via_q8_1_sums(t, w.data(), cpu.data(), cols));
      const double bound = fast_division_q8_1_error_bound(t, w.data(), x.data(), cpu.data(), cols);
      ASSERT_LE(diff, bound * (1 + 1e-12)) << to_string(t) << " trial " << trial;
    }
  }
  EXPECT_GT(flips, 1000u);  // the quantizer above did round otherwise, often
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// ElementDot's one pass in steps of a few blocks gives the dot of the whole dequantized rows bit
// for bit, at lengths that end in a partial step (32-value types: 9 blocks = one step of 8 and one
// of 1), and so does every function built on it; M of a type without offsets is sum |w||x|.
// Assigning another element and back gives the first element's answers again.
TEST(ElementDot, OnePassEqualsTheSumsOverWholeDequantizedRows) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<float> mag(0.1f, 1.0f);
  const auto random_row = [&](std::size_t n) {
    std::vector<float> v(n);
    for (float& e : v) e = (rng() & 1 ? -1.0f : 1.0f) * mag(rng);
    return v;
  };
  for (QuantType t : weight_quant_types()) {
    const std::size_t qk = quant_traits(t).qk;
    for (std::size_t blocks : {1, 3, 9, 11}) {
      const std::size_t cols = qk * blocks;
      SCOPED_TRACE(std::string(to_string(t)) + " cols " + std::to_string(cols));
      const Row a = make_row(t, random_row(cols), random_row(cols));
      const Row b = make_row(t, random_row(cols), random_row(cols));
      std::vector<double> w(cols), x(cols);
      dequantize_row(t, a.weights.data(), w.data(), cols);
      dequantize_row(QuantType::q8_1, a.act.data(), x.data(), cols);
      double dot = 0, abs_dot = 0;
      for (std::size_t c = 0; c < cols; ++c) {
        dot += w[c] * x[c];
        abs_dot += std::fabs(w[c]) * std::fabs(x[c]);
      }
      const ElementDot fresh(t, a.weights.data(), a.act.data(), cols);
      EXPECT_TRUE(same_bits(fresh.dot(), dot));
      EXPECT_TRUE(same_bits(reference_dot(t, a.weights.data(), a.act.data(), cols), dot));
      const bool no_offset = t == QuantType::q8_0 || t == QuantType::q3_K || t == QuantType::q6_K ||
                             t == QuantType::iq4_nl || t == QuantType::iq4_xs;
      if (no_offset) {
        EXPECT_TRUE(same_bits(fresh.magnitude(), abs_dot));
      } else {
        EXPECT_GE(fresh.magnitude(), abs_dot);
      }
      if (!folds_offset_through_q8_1_sum(t)) {
        EXPECT_TRUE(same_bits(fresh.dot_via_q8_1_sums(), dot));
      }

      ElementDot reused;
      reused.assign(t, b.weights.data(), b.act.data(), cols);
      reused.assign(t, a.weights.data(), a.act.data(), cols);
      EXPECT_TRUE(same_bits(reused.dot(), fresh.dot()));
      EXPECT_TRUE(same_bits(reused.dot_via_q8_1_sums(), fresh.dot_via_q8_1_sums()));
      EXPECT_TRUE(same_bits(reused.magnitude(), fresh.magnitude()));
      EXPECT_TRUE(same_bits(reused.tolerance(), fresh.tolerance()));
      EXPECT_TRUE(same_bits(reused.tolerance_via_q8_1_sums(), fresh.tolerance_via_q8_1_sums()));
      EXPECT_TRUE(same_bits(reused.fp16_scale_product_error_bound(), fresh.fp16_scale_product_error_bound()));
    }
  }
}

TEST(ElementDot, TheFastDivisionBoundNeedsItsActivationRow) {
  const std::vector<float> x(32, 0.5f);
  const Row r = make_row(QuantType::q8_0, std::vector<float>(32, 0.25f), x);
  EXPECT_THROW(ElementDot(QuantType::q8_0, r.weights.data(), r.act.data(), 32).fast_division_q8_1_error_bound(),
               std::logic_error);
  const FastDivisionQ8_1Row row(x.data(), r.act.data(), 32);
  EXPECT_EQ(ElementDot(QuantType::q8_0, r.weights.data(), r.act.data(), 32, &row).fast_division_q8_1_error_bound(),
            fast_division_q8_1_error_bound(QuantType::q8_0, r.weights.data(), x.data(), r.act.data(), 32));
  const FastDivisionQ8_1Row longer(std::vector<float>(64, 0.5f).data(), r.act.data(), 64);
  EXPECT_THROW(ElementDot(QuantType::q8_0, r.weights.data(), r.act.data(), 32, &longer), std::invalid_argument);
  EXPECT_THROW(ElementDot(QuantType::q8_1, r.weights.data(), r.act.data(), 32), std::invalid_argument);
}

}  // namespace
}  // namespace gridfuzz::formats::gguf
