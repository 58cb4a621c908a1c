// The 32/64-bit index dispatch of the non-legacy moe_vec/mmvq variants: the launcher picks the
// 32-bit gemv_tiled instantiation exactly when every index of it fits uint32, the plan declares
// the ranges of the instantiation it picks (uint32 or int64), and the Predictor finds them safe on
// both sides of each boundary. Also the multiply-high divider the kernels use for pair -> token.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <random>

#include "gemv_args.hpp"
#include "gridfuzz/gguf/formats.hpp"
#include "launch_geometry.hpp"
#include "plan_test_support.hpp"

namespace gridfuzz::gguf::testing {
namespace {

const auto moe = make_moe_vec_kernel();
const auto mmvq = make_mmvq_kernel();
const char* const kTiledVariants[] = {"fixed", "zchunk", "rows_x", "pairs_x"};
constexpr u128 k2to32 = u128{1} << 32;

// The declared types of every index of `variant`'s plan, after checking that the plan is accepted
// and no index wraps: uint32 (int32 for the in-row byte offset) on the narrow side, int64 on the
// wide one.
void expect_plan_width(const Kernel& k, const char* variant, const std::string& overrides, GemvIndexWidth want) {
  SCOPED_TRACE(std::string(variant) + " " + overrides);
  const Params p = params_for(k, overrides);
  ASSERT_FALSE(k.check(p).has_value());
  const LaunchPlan plan = k.plan(p, variant, sm90());
  const Prediction pr = predict(plan, sm90());
  EXPECT_EQ(pr.outcome, "accept") << pr.detail;
  EXPECT_EQ(pr.index_wrap(), "safe");
  const IndexType wide_or_narrow = want == GemvIndexWidth::bits32 ? IndexType::uint32 : IndexType::int64;
  int gemv_ranges = 0;
  for (const IndexRange& r : plan.indices) {
    if (r.name.rfind("q8_1_", 0) == 0) {
      // The quantizer of the fixed family picks its own width from its own indices (both ranges
      // of one call share it: output >= input).
      EXPECT_EQ(r.type, r.max_value < k2to32 ? IndexType::uint32 : IndexType::int64) << r.name;
      continue;
    }
    ++gemv_ranges;
    EXPECT_EQ(r.type, r.name == "weight_in_row_bytes" ? IndexType::int32 : wide_or_narrow) << r.name;
  }
  EXPECT_EQ(gemv_ranges, 4);
}

void expect_width_both_sides(const Kernel& k, const std::string& narrow, const std::string& wide) {
  for (const char* variant : kTiledVariants) {
    if (&k == mmvq.get() && std::string(variant) != "fixed") continue;  // mmvq has legacy and fixed
    expect_plan_width(k, variant, narrow, GemvIndexWidth::bits32);
    expect_plan_width(k, variant, wide, GemvIndexWidth::bits64);
  }
}

u128 max_value_named(const Kernel& k, const std::string& overrides, const std::string& name) {
  for (const IndexRange& r : k.plan(params_for(k, overrides), "fixed", sm90()).indices)
    if (r.name == name) return r.max_value;
  ADD_FAILURE() << "no index named " << name;
  return 0;
}

// dst_index = pairs*rows - 1: rows 1024, pairs 2^22 ends at 2^32 - 1; 8 pairs more cross it.
TEST(GemvIndexWidth, DstIndexBoundaryPairsTimesRows) {
  const std::string narrow = "tokens=524288,top_k=8,rows=1024", wide = "tokens=524289,top_k=8,rows=1024";
  EXPECT_EQ(max_value_named(*moe, narrow, "dst_index"), k2to32 - 1);
  EXPECT_EQ(max_value_named(*moe, wide, "dst_index"), k2to32 + 8 * 1024 - 1);
  expect_width_both_sides(*moe, narrow, wide);
}

// The gemma-4 gate/up shape (rows 1408): 3,050,402 pairs is the last that fits.
TEST(GemvIndexWidth, DstIndexBoundaryGemmaRows) {
  expect_width_both_sides(*moe, "tokens=3050402,top_k=1", "tokens=3050403,top_k=1");
}

// act_offset = (tokens-1)*token_stride, stride 864 int32 words for K=2816: the last token that
// fits is 4,971,026 (the same boundary at which legacy's uint32 act_offset wraps).
TEST(GemvIndexWidth, ActivationOffsetBoundaryTokenTimesStride) {
  const std::string narrow = "tokens=4971027,top_k=1,rows=64", wide = "tokens=4971028,top_k=1,rows=64";
  EXPECT_LT(max_value_named(*moe, narrow, "act_offset"), k2to32);
  EXPECT_GE(max_value_named(*moe, wide, "act_offset"), k2to32);
  EXPECT_LT(max_value_named(*moe, wide, "dst_index"), k2to32);  // the activation offset alone decides
  expect_width_both_sides(*moe, narrow, wide);
}

// weight_row_block = (experts*rows - 1)*blocks_per_row: 4096 experts x 1024 rows x 1024 blocks
// (q4_0, cols 32768) ends at 2^32 - 1024; one row more crosses 2^32.
TEST(GemvIndexWidth, WeightRowBlockBoundaryExpertsTimesRowsTimesBlocks) {
  const std::string narrow = "tokens=1,top_k=1,experts=4096,rows=1024,cols=32768";
  const std::string wide = "tokens=1,top_k=1,experts=4096,rows=1025,cols=32768";
  EXPECT_EQ(max_value_named(*moe, narrow, "weight_row_block"), k2to32 - 1024);
  EXPECT_GE(max_value_named(*moe, wide, "weight_row_block"), k2to32);
  expect_width_both_sides(*moe, narrow, wide);
}

// mmvq: nvecs*rows crosses 2^32 at 2^22 vectors of 1024 rows.
TEST(GemvIndexWidth, MmvqDstBoundary) {
  expect_width_both_sides(*mmvq, "nvecs=4194304,rows=1024", "nvecs=4194305,rows=1024");
}

// The benchmarked shapes all run the 32-bit kernel.
TEST(GemvIndexWidth, BenchmarkShapesAreNarrow) {
  for (const char* quant : {"q4_0", "q4_K", "q8_0"})
    for (const char* tokens : {"1", "64", "8191", "8192"})
      expect_plan_width(*moe, "fixed", std::string("quant=") + quant + ",tokens=" + tokens, GemvIndexWidth::bits32);
}

// Over random shapes from 1 element to far past 2^32: the width is 32 bits exactly when the three
// products, computed here from the formulas, fit; the plan declares that width; nothing wraps.
RC_GTEST_PROP(GemvIndexWidthProperty, NarrowExactlyWhenEveryBoundFits, ()) {
  MoeCallShape s;
  s.dense = *rc::gen::arbitrary<bool>();
  const auto log_uniform = [](int max_bits) {
    const int bits = *rc::gen::inRange(0, max_bits + 1);
    return *rc::gen::inRange<std::uint64_t>(std::uint64_t{1} << bits >> 1 | 1, (std::uint64_t{1} << bits) + 1);
  };
  s.tokens = std::min<std::uint64_t>(log_uniform(26), 1ull << 26);
  s.top_k = s.dense ? 1 : *rc::gen::inRange<std::uint64_t>(1, 65);
  s.experts = s.dense ? 1 : std::max<std::uint64_t>(s.top_k, std::min<std::uint64_t>(log_uniform(12), 4096));
  s.rows = std::min<std::uint64_t>(log_uniform(20), 1u << 20);
  s.quant = *rc::gen::elementOf(weight_quant_types());
  s.cols = quant_traits(s.quant).qk * std::max<std::uint64_t>(1, log_uniform(20) / quant_traits(s.quant).qk);
  s.proj = *rc::gen::element(Projection::gate_up, Projection::down);
  RC_PRE(s.cols <= (1u << 20) && moe_shape_problem(s).empty());

  const u128 tokens = s.dense || s.proj == Projection::down ? s.pairs() : s.tokens;
  const u128 dst = u128{s.pairs()} * s.rows - 1;
  const u128 act = (tokens - 1) * s.token_stride();
  const u128 weight = (u128{s.experts} * s.rows - 1) * s.blocks_per_row();
  const bool fits = dst < k2to32 && act < k2to32 && weight < k2to32;
  RC_CLASSIFY(fits, "narrow");
  RC_CLASSIFY(!fits, "wide");
  RC_ASSERT((gemv_index_width(s) == GemvIndexWidth::bits32) == fits);
  for (GemvGeometry g : {GemvGeometry::fixed, GemvGeometry::zchunk, GemvGeometry::rows_x, GemvGeometry::pairs_x})
    for (const IndexRange& r : gemv_indices(g, s)) {
      RC_ASSERT(check_index(r).safe);
      if (r.name != "weight_in_row_bytes") RC_ASSERT(r.type == (fits ? IndexType::uint32 : IndexType::int64));
    }
}

// The multiply-high divider equals n / d for every top_k the axis allows, at the edges of every
// quotient step near 0, 2^31 and 2^32, and at random n.
TEST(U32Divider, ExactForEveryTopKAtEdgesAndRandomN) {
  std::mt19937_64 rng(20261129);
  for (std::uint32_t d = 1; d <= 64; ++d) {
    const U32Divider div = U32Divider::of(d);
    const auto expect_exact = [&](std::uint64_t n) {
      if (n > 0xFFFFFFFFull) return;
      const auto n32 = static_cast<std::uint32_t>(n);
      ASSERT_EQ(div.divide(n32), n32 / d) << "n " << n << " d " << d;
    };
    for (std::uint64_t base : {std::uint64_t{0}, std::uint64_t{1} << 31, std::uint64_t{1} << 32})
      for (std::int64_t k = -200; k <= 200; ++k) {
        if (k < 0 && base / d < static_cast<std::uint64_t>(-k)) continue;
        const std::uint64_t q = base / d + static_cast<std::uint64_t>(k);
        if (q == 0) continue;
        expect_exact(q * d - 1);
        expect_exact(q * d);
        expect_exact(q * d + d - 1);
      }
    expect_exact(0xFFFFFFFFull);
    for (int i = 0; i < 20000; ++i) expect_exact(rng() & 0xFFFFFFFFull);
  }
}

}  // namespace
}  // namespace gridfuzz::gguf::testing
