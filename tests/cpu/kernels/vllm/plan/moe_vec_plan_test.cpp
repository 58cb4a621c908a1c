// vllm.moe_vec's plans against the sm_90 limits: upstream refused where tokens*top_k passes
// 65535 (the seed bug, still in vllm-gguf-plugin 0.0.5), upstream's int offsets wrapping where
// the model says, the chunked fix never refused; and upstream's block structs equal to gridfuzz's
// GGUF formats, which the CPU reference relies on.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "cuda/upstream_kernels.hpp"
#include "gridfuzz/vllm/register.hpp"
#include "plan/moe_vec_plan.hpp"
#include "plan_test_support.hpp"
#include "gridfuzz/search/strategies.hpp"

namespace gridfuzz::vllm {
namespace {

using gguf::testing::index_named;
using gguf::testing::params_for;
using gguf::testing::predict_for;
using gguf::testing::sm90;

const auto moe = make_moe_vec_kernel();

std::string tk(std::uint64_t tokens, std::uint64_t top_k) {
  return "tokens=" + std::to_string(tokens) + ",top_k=" + std::to_string(top_k);
}

TEST(VllmUpstream, BlockStructsEqualGridfuzzGgufFormats) {
  const auto differences = block_layout_differences();
  EXPECT_TRUE(differences.empty()) << differences.front();
}

TEST(VllmUpstream, ConstantsAreUpstreamsHeaders) {
  const UpstreamConstants c = upstream_constants();
  EXPECT_EQ(c.warp_size, 32);
  EXPECT_EQ(c.mmv_y, 1);
  EXPECT_EQ(c.quantize_block_threads, 256);
  EXPECT_EQ(c.qk8_1, 32);
}

TEST(VllmMoeVecPlan, UpstreamFirstRefusedWhereTokensTimesTopKPasses65535) {
  for (const auto& [top_k, first_bad] : {std::pair{8, 8192}, {2, 32768}, {6, 10923}, {4, 16384}, {1, 65536}}) {
    for (const char* proj : {"gate_up", "down"}) {
      const std::string extra = std::string(",proj=") + proj;
      EXPECT_EQ(predict_for(*moe, "upstream", tk(first_bad, top_k) + extra).outcome, "refuse:grid.z")
          << top_k << " " << proj;
      EXPECT_EQ(predict_for(*moe, "upstream", tk(first_bad - 1, top_k) + extra).outcome, "accept") << top_k << " " << proj;
      EXPECT_EQ(predict_for(*moe, "chunked", tk(first_bad, top_k) + extra).outcome, "accept") << top_k << " " << proj;
    }
  }
}

TEST(VllmMoeVecPlan, StaticBisectFinds8192ForUpstreamAndNothingForChunked) {
  const Params base = params_for(*moe, "top_k=8");
  const auto bad_at = [&](const std::string& variant) {
    return [&, variant](std::int64_t tokens) {
      Params p = base;
      p.set("tokens", std::to_string(tokens));
      const Prediction pr = predict(moe->plan(p, variant, sm90()), sm90());
      return !pr.accepted() || pr.index_wrap() != "safe";
    };
  };
  EXPECT_EQ(bisect_first_bad(1, 1'000'000, 1, bad_at("upstream")).first_bad, 8192);
  EXPECT_FALSE(bisect_first_bad(1, 1'000'000, 1, bad_at("chunked")).first_bad.has_value());
}

TEST(VllmMoeVecPlan, UpstreamGridAndArgumentsAreItsHostCode) {
  const MoeVecCall call = moe_vec_call(MoeVecVariant::upstream, gguf::moe_shape_from(params_for(*moe, tk(100, 8))),
                                       upstream_constants(), sm90());
  ASSERT_EQ(call.quantize.size(), 1u);
  EXPECT_EQ(call.quantize[0].spec.grid, (Dim3{3072 / 256, 100, 1}));  // kx_padded = 3072 for 2816 columns
  EXPECT_EQ(call.quantize[0].kx_padded, 3072);
  ASSERT_EQ(call.gemv.size(), 1u);
  EXPECT_EQ(call.gemv[0].spec.grid, (Dim3{1408, 1, 800}));
  EXPECT_EQ(call.gemv[0].spec.block, (Dim3{32, 1, 1}));
  EXPECT_EQ(call.gemv[0].token_stride, 3072 / 32 * 9);
}

TEST(VllmMoeVecPlan, ChunkedSplitsGridZAtTheLimitAndCoversEveryPairOnce) {
  for (const char* proj : {"gate_up", "down"}) {
    const gguf::MoeCallShape s = gguf::moe_shape_from(params_for(*moe, tk(20000, 8) + ",proj=" + proj));
    const MoeVecCall call = moe_vec_call(MoeVecVariant::chunked, s, upstream_constants(), sm90());
    std::uint64_t next_pair = 0;
    for (const MoeVecLaunch& l : call.gemv) {
      EXPECT_LE(l.spec.grid.z, 65535u);
      EXPECT_EQ(l.dst_offset, next_pair * s.rows) << proj;
      EXPECT_EQ(l.ids_offset, next_pair) << proj;
      next_pair += l.spec.grid.z;
    }
    EXPECT_EQ(next_pair, s.pairs()) << proj;
  }
}

// Upstream's quantize loop passes &x[off * kx] with an int product: past 2^31 elements the
// offset wraps negative. With DeepSeek-V3's hidden size 7168 the first chunk whose offset passes
// 2^31 starts at row 5 * 65535 = 327675: from 327676 tokens on.
TEST(VllmMoeVecPlan, UpstreamQuantizeChunkOffsetWrapsInIntTheFixDoesNot) {
  const std::string shape = "tokens=327676,top_k=8,cols=7168,rows=4096,experts=256";
  EXPECT_FALSE(index_named(*moe, "upstream", shape, "q8_1_chunk_input_offset").safe);
  EXPECT_TRUE(index_named(*moe, "upstream", "tokens=327675,top_k=8,cols=7168,rows=4096,experts=256",
                          "q8_1_chunk_input_offset").safe);
  const gguf::MoeCallShape s = gguf::moe_shape_from(params_for(*moe, shape));
  const MoeVecCall upstream = moe_vec_call(MoeVecVariant::upstream, s, upstream_constants(), sm90());
  const MoeVecCall chunked = moe_vec_call(MoeVecVariant::chunked, s, upstream_constants(), sm90());
  ASSERT_EQ(upstream.quantize.size(), chunked.quantize.size());
  const std::int64_t last = upstream.quantize.back().x_offset, fixed = chunked.quantize.back().x_offset;
  EXPECT_LT(last, 0) << "the int product wrapped negative";
  EXPECT_EQ(fixed, std::int64_t{5 * 65535} * 7168);
  EXPECT_EQ(static_cast<std::uint32_t>(last), static_cast<std::uint32_t>(fixed));
  for (const IndexRange& r : moe->plan(params_for(*moe, shape), "chunked", sm90()).indices)
    EXPECT_FALSE(r.name.starts_with("q8_1_chunk_")) << "the fix computes chunk offsets in 64 bits";
}

// tokens * top_k in int: at 2^32 pairs the grid's z extent wraps to 0.
TEST(VllmMoeVecPlan, UpstreamPairCountWrapsTo0AtTwoTo32) {
  const gguf::MoeCallShape s = gguf::moe_shape_from(params_for(*moe, "tokens=67108864,top_k=64,experts=64,cols=32,rows=1"));
  const MoeVecCall call = moe_vec_call(MoeVecVariant::upstream, s, upstream_constants(), sm90());
  EXPECT_EQ(call.gemv.back().spec.grid.z, 0u);
}

// vllm.mmvq (ggml_mul_mat_vec_a8): nvecs on grid.y, refused from 65536 vectors; chunked never.
TEST(VllmMmvqPlan, UpstreamRefusedFrom65536VectorsChunkedNever) {
  const auto mmvq = make_mmvq_kernel();
  EXPECT_EQ(predict_for(*mmvq, "upstream", "nvecs=65535").outcome, "accept");
  EXPECT_EQ(predict_for(*mmvq, "upstream", "nvecs=65536").outcome, "refuse:grid.y");
  EXPECT_EQ(predict_for(*mmvq, "chunked", "nvecs=65536").outcome, "accept");
  EXPECT_EQ(predict_for(*mmvq, "chunked", "nvecs=1000000").outcome, "accept");
  const LaunchPlan plan = mmvq->plan(params_for(*mmvq, "nvecs=100"), "upstream", sm90());
  ASSERT_EQ(plan.launches.size(), 2u);
  EXPECT_EQ(plan.launches[1].grid, (Dim3{1408, 100, 1}));
  // mmvq.cuh:40 writes dst[vec*nrows + row] with an unsigned vec: it wraps at 2^32, not 2^31.
  EXPECT_TRUE(index_named(*mmvq, "upstream", "nvecs=65535,rows=32769", "dst_index").safe);    // 2^31 + 32766 - 1
  EXPECT_FALSE(index_named(*mmvq, "upstream", "nvecs=65535,rows=65538", "dst_index").safe);   // 2^32 + 65533
  // The chunked launches advance dst on the host in 64 bits: each sees at most 65535 vectors.
  EXPECT_TRUE(index_named(*mmvq, "chunked", "nvecs=131070,rows=65535", "dst_index").safe);
}

// vllm.quantize_q8_1 alone: tiles of 65535 rows are never refused; upstream's int tile offset
// wraps from 327676 rows of 7168 columns, the chunked one never.
TEST(VllmQuantizePlan, UpstreamTileOffsetWrapsChunkedNever) {
  const auto q = make_quantize_q8_1_kernel();
  EXPECT_EQ(predict_for(*q, "upstream", "rows=327675,cols=7168").index_wrap(), "safe");
  const Prediction bad = predict_for(*q, "upstream", "rows=327676,cols=7168");
  EXPECT_TRUE(bad.accepted());
  EXPECT_EQ(bad.index_wrap(), "wrap:q8_1_chunk_input_offset");
  EXPECT_EQ(predict_for(*q, "chunked", "rows=327676,cols=7168").index_wrap(), "safe");
  EXPECT_EQ(q->plan(params_for(*q, "rows=200000,cols=7168"), "upstream", sm90()).launches.size(), 4u);  // 65535-row tiles
}

// The quantizer's i_padded = iy * kx_padded + ix (gguf_kernel.cu:41, an int inside the kernel,
// gridfuzz's q8_1_output_index): a tile of R rows wraps it once R * kx_padded > 2^31. Tiles hold
// at most 65535 rows, so it cannot wrap at 32768 columns or fewer (65535 * 32768 < 2^31), only
// from the next padded width, 33280, at 64528 rows; at llama3.1-405b's FFN input (53248 columns,
// a profile of the sweep) from 40330 rows. The chunked fix tiles on the host only: it keeps it.
TEST(VllmQuantizePlan, IPaddedWrapsOnlyPastCols32768) {
  const auto q = make_quantize_q8_1_kernel();
  for (const char* variant : {"upstream", "chunked"}) {
    EXPECT_TRUE(index_named(*q, variant, "rows=65535,cols=32768", "q8_1_output_index").safe) << variant;
    EXPECT_TRUE(index_named(*q, variant, "rows=1000000,cols=32768", "q8_1_output_index").safe) << variant;
    EXPECT_TRUE(index_named(*q, variant, "rows=64527,cols=32769", "q8_1_output_index").safe) << variant;
    EXPECT_FALSE(index_named(*q, variant, "rows=64528,cols=32769", "q8_1_output_index").safe) << variant;
    EXPECT_TRUE(index_named(*q, variant, "rows=40329,cols=53248", "q8_1_output_index").safe) << variant;
    const IndexVerdict wrapped = index_named(*q, variant, "rows=40330,cols=53248", "q8_1_output_index");
    EXPECT_FALSE(wrapped.safe) << variant;
    EXPECT_EQ(wrapped.max_value, u128{40330} * 53248 - 1) << variant;
  }
  EXPECT_EQ(predict_for(*q, "upstream", "rows=40330,cols=53248").index_wrap(), "wrap:q8_1_output_index");
  // vllm.mmvq quantizes its vectors with the same kernel: at the profile's ffn.down shape the
  // sweep crosses nvecs there, in both variants.
  const auto mmvq = make_mmvq_kernel();
  for (const char* variant : {"upstream", "chunked"}) {
    EXPECT_EQ(predict_for(*mmvq, variant, "rows=16384,cols=53248,nvecs=40329").index_wrap(), "safe") << variant;
    EXPECT_EQ(predict_for(*mmvq, variant, "rows=16384,cols=53248,nvecs=40330").index_wrap(), "wrap:q8_1_output_index")
        << variant;
  }
}

RC_GTEST_PROP(VllmMoeVecPlan, ChunkedIsNeverRefused, ()) {
  const auto tokens = *rc::gen::inRange<std::uint64_t>(1, 1u << 22);
  const auto top_k = *rc::gen::inRange<std::uint64_t>(1, 65);
  const Params p = params_for(*moe, tk(tokens, top_k) + ",experts=64");
  RC_PRE(!moe->check(p).has_value());
  RC_ASSERT(predict(moe->plan(p, "chunked", sm90()), sm90()).accepted());
}

}  // namespace
}  // namespace gridfuzz::vllm
