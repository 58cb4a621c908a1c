// moe_vec / mmvq plans against the sm_90 limits: where legacy is refused, that fixed and zchunk
// never are, and where legacy's 32-bit indices wrap (docs/KERNELS.md, "Boundary formulas").
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "gridfuzz/gguf/formats.hpp"
#include "plan_test_support.hpp"

namespace gridfuzz::gguf::testing {
namespace {

const auto moe = make_moe_vec_kernel();
const auto mmvq = make_mmvq_kernel();

std::string tk(std::uint64_t tokens, std::uint64_t top_k) {
  return "tokens=" + std::to_string(tokens) + ",top_k=" + std::to_string(top_k);
}

TEST(MoeVecPlan, LegacyFirstRefusedAtFloor65535OverTopKPlusOne) {
  for (const auto& [top_k, first_bad] : {std::pair{8, 8192}, {2, 32768}, {6, 10923}, {10, 6554}, {4, 16384}, {1, 65536}}) {
    for (const char* proj : {"gate_up", "down"}) {
      const std::string extra = std::string(",proj=") + proj;
      const Prediction bad = predict_for(*moe, "legacy", tk(first_bad, top_k) + extra);
      EXPECT_EQ(bad.outcome, "refuse:grid.z") << "top_k " << top_k << " tokens " << first_bad << " " << proj;
      ASSERT_TRUE(bad.refused_launch.has_value());
      EXPECT_EQ(moe->plan(params_for(*moe, tk(first_bad, top_k) + extra), "legacy", sm90()).launches[*bad.refused_launch].name,
                "moe_vec");
      const Prediction good = predict_for(*moe, "legacy", tk(first_bad - 1, top_k) + extra);
      EXPECT_EQ(good.outcome, "accept") << "top_k " << top_k << " tokens " << first_bad - 1 << " " << proj << ": "
                                        << good.detail;
    }
  }
}

TEST(MoeVecPlan, LegacyGridIsRowsOneAndPairs) {
  const LaunchPlan plan = moe->plan(params_for(*moe, tk(100, 8)), "legacy", sm90());
  ASSERT_EQ(plan.launches.size(), 2u);  // quantize (one tile) + moe_vec
  EXPECT_EQ(plan.launches[1].grid, (Dim3{1408, 1, 800}));
  EXPECT_EQ(plan.launches[1].block, (Dim3{32, 1, 1}));
  EXPECT_EQ(plan.launches[0].grid, (Dim3{3072 / 256, 100, 1}));
}

TEST(MoeVecPlan, DownProjectionQuantizesTokensTimesTopKRows) {
  const LaunchPlan plan = moe->plan(params_for(*moe, tk(8191, 8) + ",proj=down,rows=2816,cols=704"), "fixed", sm90());
  std::uint64_t quantized = 0;
  for (const auto& l : plan.launches)
    if (l.name == "quantize_q8_1") quantized += l.grid.y;
  EXPECT_EQ(quantized, 8191u * 8);
}

RC_GTEST_PROP(MoeVecPlanProperty, FixedAndZchunkNeverRefusedUpToAMillionTokens, ()) {
  const auto tokens = *rc::gen::inRange<std::uint64_t>(1, 1'000'001);
  const auto top_k = *rc::gen::inRange<std::uint64_t>(1, 17);
  const auto rows = *rc::gen::inRange<std::uint64_t>(1, 1 << 17);
  const auto proj = *rc::gen::element<std::string>("gate_up", "down");
  const auto quant = *rc::gen::elementOf(weight_quant_types());
  const std::uint64_t qk = quant_traits(quant).qk;
  const auto cols = qk * *rc::gen::inRange<std::uint64_t>(1, 64);
  const std::string params = tk(tokens, top_k) + ",rows=" + std::to_string(rows) + ",cols=" + std::to_string(cols) +
                             ",proj=" + proj + ",quant=" + std::string(to_string(quant));
  for (const char* variant : {"fixed", "zchunk", "rows_x", "pairs_x"}) {
    const Prediction pr = predict_for(*moe, variant, params);
    RC_ASSERT(pr.outcome == "accept");
    RC_ASSERT(pr.index_wrap() == "safe");
  }
}

// Below every 32-bit bound the tiled variants run the 32-bit kernel and declare its indices uint32
// (index_width_test.cpp has the boundaries); legacy keeps upstream's int32 weight block.
TEST(MoeVecPlan, TiledVariantsDeclareTheNarrowKernelAtTheRefusalShape) {
  for (const char* variant : {"fixed", "zchunk", "rows_x", "pairs_x"}) {
    for (const IndexRange& r : moe->plan(params_for(*moe, tk(8192, 8)), variant, sm90()).indices) {
      if (r.name.rfind("q8_1_", 0) != 0 && r.name != "weight_in_row_bytes") {
        EXPECT_EQ(r.type, IndexType::uint32) << variant << " " << r.name;
      }
    }
  }
}

// p*nrows + row in uint32 (docs/KERNELS.md, "Boundary formulas"): gemma-4 gate/up (nrows 1408)
// wraps from 3,050,403 pairs.
TEST(MoeVecPlan, LegacyDstIndexWrapsAtTheUint32Boundary) {
  EXPECT_FALSE(index_named(*moe, "legacy", tk(1'016'801, 3), "dst_index").safe);  // 3,050,403 pairs
  EXPECT_TRUE(index_named(*moe, "legacy", tk(1'016'800, 3), "dst_index").safe);   // 3,050,400 pairs
  EXPECT_FALSE(index_named(*moe, "legacy", tk(381'301, 8), "dst_index").safe);    // 3,050,408 pairs
  EXPECT_TRUE(index_named(*moe, "legacy", tk(381'300, 8), "dst_index").safe);     // 3,050,400 pairs
  const IndexVerdict v = index_named(*moe, "legacy", tk(1'016'801, 3), "dst_index");
  EXPECT_EQ(v.limit, u128{1} << 32);
  EXPECT_EQ(v.max_value, u128{3'050'403} * 1408 - 1);
  // The fixed variant declares the same expression int64: safe.
  EXPECT_TRUE(index_named(*moe, "fixed", tk(1'016'801, 3), "dst_index").safe);
}

// token*token_stride in uint32 int32-words: K=2816 (stride 864) wraps at token 4,971,027.
TEST(MoeVecPlan, LegacyActivationOffsetWrapsAtTheUint32Boundary) {
  EXPECT_FALSE(index_named(*moe, "legacy", "tokens=4971028,top_k=1", "act_offset").safe);  // last token 4,971,027
  EXPECT_TRUE(index_named(*moe, "legacy", "tokens=4971027,top_k=1", "act_offset").safe);
}

TEST(MmvqPlan, LegacyRefusedAt65536Vectors) {
  EXPECT_EQ(predict_for(*mmvq, "legacy", "nvecs=65536").outcome, "refuse:grid.y");
  EXPECT_EQ(predict_for(*mmvq, "legacy", "nvecs=65535").outcome, "accept");
  EXPECT_EQ(predict_for(*mmvq, "fixed", "nvecs=1000000").outcome, "accept");
  EXPECT_EQ(predict_for(*mmvq, "fixed", "nvecs=1000000").index_wrap(), "safe");
}

TEST(MoeVecPlan, ConstraintsAreChecked) {
  EXPECT_TRUE(moe->check(params_for(*moe, "quant=q4_K,cols=704")).has_value());  // 704 % 256 != 0
  EXPECT_FALSE(moe->check(params_for(*moe, "quant=q4_0,cols=704")).has_value());
  EXPECT_TRUE(moe->check(params_for(*moe, "top_k=9,experts=8")).has_value());
  EXPECT_TRUE(moe->check(params_for(*moe, "quant=q8_1")).has_value());  // activation-only format
}

}  // namespace
}  // namespace gridfuzz::gguf::testing
