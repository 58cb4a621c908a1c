// The by_expert moe_vec's plan (docs/KERNELS.md, "Ours: by_expert"): every launch of the call
// (quantize, the three pre-pass launches, the GEMV) in order with its geometry; the GEMV's grid
// (row tiles, used-expert slots) tiled at the x and y limits and covering every (slot, row) once;
// the index ranges of the 32- and 64-bit instantiations, including the pre-pass's, at pair counts
// near 2^31 and 2^32; the scratch layout; never refused up to the axes' ends.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <stdexcept>

#include "gemv_args.hpp"
#include "gridfuzz/gguf/formats.hpp"
#include "launch_geometry.hpp"
#include "plan_test_support.hpp"

namespace gridfuzz::gguf::testing {
namespace {

const auto moe = make_moe_vec_kernel();
constexpr u128 k2to32 = u128{1} << 32;

std::string tk(std::uint64_t tokens, std::uint64_t top_k) {
  return "tokens=" + std::to_string(tokens) + ",top_k=" + std::to_string(top_k);
}

LaunchPlan plan_of(const std::string& overrides, const DeviceLimits& limits = sm90()) {
  const Params p = params_for(*moe, overrides);
  if (auto err = moe->check(p)) ADD_FAILURE() << *err;
  return moe->plan(p, "by_expert", limits);
}

const LaunchSpec& launch_named(const LaunchPlan& plan, const std::string& name) {
  for (const LaunchSpec& l : plan.launches)
    if (l.name == name) return l;
  throw std::out_of_range("no launch named " + name);
}

const IndexRange& range_named(const LaunchPlan& plan, const std::string& name) {
  for (const IndexRange& r : plan.indices)
    if (r.name == name) return r;
  throw std::out_of_range("no index named " + name);
}

MoeCallShape shape(std::uint64_t tokens, std::uint64_t top_k, std::uint64_t experts, std::uint64_t rows = 1408,
                   std::uint64_t cols = 2816) {
  MoeCallShape s;
  s.tokens = tokens;
  s.top_k = top_k;
  s.experts = experts;
  s.rows = rows;
  s.cols = cols;
  return s;
}

TEST(ByExpertPlan, IsAVariantOfMoeVecOnly) {
  const auto v = moe->variants();
  EXPECT_NE(std::find(v.begin(), v.end(), "by_expert"), v.end());
  const auto mv = make_mmvq_kernel()->variants();
  EXPECT_EQ(std::find(mv.begin(), mv.end(), "by_expert"), mv.end());
  MoeCallShape dense = shape(8, 1, 1);
  dense.dense = true;
  EXPECT_THROW(expert_group_launches(GemvGeometry::by_expert, dense), std::invalid_argument);
  EXPECT_THROW(gemv_launches(GemvGeometry::by_expert, dense, sm90()), std::invalid_argument);
}

// gemma-4 gate/up at 8 tokens: quantize (one tile), the one-block pre-pass, then the GEMV over
// 1408/16 row tiles and min(128, 64) expert slots.
TEST(ByExpertPlan, EveryLaunchOfTheCallInOrder) {
  const LaunchPlan plan = plan_of(tk(8, 8));
  ASSERT_EQ(plan.launches.size(), 3u);
  EXPECT_EQ(plan.launches[0].name, "quantize_q8_1");
  EXPECT_EQ(plan.launches[0].grid, (Dim3{3072 / 256, 8, 1}));
  EXPECT_EQ(plan.launches[1].name, "moe_expert_group");
  EXPECT_EQ(plan.launches[1].grid, (Dim3{1, 1, 1}));
  EXPECT_EQ(plan.launches[1].block, (Dim3{1024, 1, 1}));
  EXPECT_EQ(plan.launches[1].func.static_smem_bytes, 4096u * 4 + 1024 * 12);
  EXPECT_LE(plan.launches[1].func.static_smem_bytes, sm90().smem_per_block);
  EXPECT_EQ(plan.launches[2].name, "moe_vec_by_expert");
  EXPECT_EQ(plan.launches[2].grid, (Dim3{88, 64, 1}));
  EXPECT_EQ(plan.launches[2].block, (Dim3{128, 1, 1}));
  // The staged rows' static shared memory (16 rows of 1152 + 16 bytes), declared so the Predictor
  // checks it (48 KiB default).
  EXPECT_EQ(plan.launches[2].func.static_smem_bytes, 16u * (1152 + 16));
  EXPECT_LE(plan.launches[2].func.static_smem_bytes, sm90().smem_per_block);
}

// Past 16384 pairs: count, scan and scatter, each its own launch.
TEST(ByExpertPlan, ThreePrePassLaunchesPastTheOneBlockPairs) {
  EXPECT_EQ(plan_of(tk(2048, 8)).launches.size(), 3u);  // 16384 pairs
  EXPECT_TRUE(expert_group_one_block(shape(2048, 8, 128)));
  EXPECT_FALSE(expert_group_one_block(shape(16385, 1, 128)));
  const LaunchPlan plan = plan_of(tk(2049, 8));  // 16392 pairs
  ASSERT_EQ(plan.launches.size(), 5u);
  EXPECT_EQ(plan.launches[1].name, "moe_expert_count");
  EXPECT_EQ(plan.launches[1].grid, (Dim3{65, 1, 1}));
  EXPECT_EQ(plan.launches[1].block, (Dim3{256, 1, 1}));
  EXPECT_EQ(plan.launches[2].name, "moe_expert_scan");
  EXPECT_EQ(plan.launches[2].grid, (Dim3{1, 1, 1}));
  EXPECT_EQ(plan.launches[2].block, (Dim3{1024, 1, 1}));
  EXPECT_EQ(plan.launches[2].func.static_smem_bytes, 1024u * 12);
  EXPECT_EQ(plan.launches[3].name, "moe_expert_scatter");
  EXPECT_EQ(plan.launches[3].grid, (Dim3{65, 1, 1}));
  EXPECT_EQ(plan.launches[4].name, "moe_vec_by_expert");
}

// Experts that no pair can use get no block: the slots are min(experts, pairs).
TEST(ByExpertPlan, SlotsAreTheExpertsThePairsCanUse) {
  EXPECT_EQ(plan_of(tk(1, 8)).launches.back().grid.y, 8u);
  EXPECT_EQ(plan_of(tk(1, 1) + ",experts=4096").launches.back().grid.y, 1u);
  EXPECT_EQ(plan_of(tk(64, 8)).launches.back().grid.y, 128u);
  EXPECT_EQ(plan_of(tk(8192, 8) + ",experts=4096").launches.back().grid.y, 4096u);
  EXPECT_EQ(plan_of(tk(100000, 1) + ",experts=1").launches.back().grid.y, 1u);
  // A last row tile of 1 row (1409 = 88*16 + 1).
  EXPECT_EQ(plan_of(tk(8, 8) + ",rows=1409").launches.back().grid.x, 89u);
}

// Issue #33's decode shapes: 4 warps of 4 rows a block, so a block owns 16 rows of one expert
// (grid.x = rows/16) and its warps read the batch's activation rows 4 rows at a time; the block
// stays 128 threads and its shared memory within the 48 KiB that needs no opt-in.
TEST(ByExpertPlan, SixteenRowsABlockAtTheDecodeShapes) {
  EXPECT_EQ(kByExpertRowsPerBlock, 16u);
  EXPECT_EQ(kByExpertThreads, 32u * kByExpertWarps);
  EXPECT_EQ(kByExpertRowsPerWarp * kByExpertPairBatch, 32u);  // one sum a lane after the reduction
  for (const auto& [o, x] : {std::pair{std::string(",rows=1408,cols=2816"), 88u}, {",rows=3072,cols=4096", 192u},
                             {",proj=down,rows=4096,cols=1536", 256u}})
    for (std::uint64_t tokens : {1u, 8u, 64u}) {
      SCOPED_TRACE(o + " tokens " + std::to_string(tokens));
      const LaunchPlan plan = plan_of(tk(tokens, 8) + ",experts=128,quant=q4_0" + o);
      const LaunchSpec& g = plan.launches.back();
      EXPECT_EQ(g.grid, (Dim3{x, std::min<std::uint64_t>(128, tokens * 8), 1}));
      EXPECT_EQ(g.block, (Dim3{128, 1, 1}));
      EXPECT_EQ(g.dynamic_smem_bytes, 0u);
      EXPECT_FALSE(g.smem_optin);
      EXPECT_EQ(g.func.static_smem_bytes, kByExpertSmemBytes);
      EXPECT_LE(g.func.static_smem_bytes, 48u * 1024);
      EXPECT_EQ(predict(plan, sm90()).outcome, "accept");
    }
}

// A warp stages each row in chunks of whole lane-mapping steps, as many as fit 1152 bytes, for
// every type (the device kernel asserts the same at compile time): each lane's blocks continue
// across chunks in gemv_tiled's order, which bit-equality with `fixed` rests on.
TEST(ByExpertPlan, StageChunkIsTheMostWholeStepsThatFit) {
  for (QuantType t : weight_quant_types()) {
    SCOPED_TRACE(std::string(to_string(t)));
    const std::uint64_t chunk = by_expert_stage_chunk_blocks(t), step = blocks_per_warp(t);
    const std::uint64_t bytes = quant_traits(t).block_bytes;
    EXPECT_GE(chunk, step);
    EXPECT_EQ(chunk % step, 0u);
    EXPECT_LE(chunk * bytes, kByExpertStageBytes);
    EXPECT_GT((chunk + step) * bytes, kByExpertStageBytes);
  }
  // q4_0: 64 blocks (4 steps of 16); a 4096-column row (128 blocks) is two chunks, 1536 one.
  EXPECT_EQ(by_expert_stage_chunk_blocks(QuantType::q4_0), 64u);
  EXPECT_EQ(by_expert_stage_chunk_blocks(QuantType::q8_0), 32u);  // 4 steps of 8 (34-byte blocks)
}

// The tile row row_offset + blockIdx.x*16 + warp*4 + r runs to the last tile's end: rows rounded
// up to 16, minus 1 (the rows past rows - 1 are read as the last row and never stored), declared
// in the kernel's index type, and that width is the one gemv_index_width picks.
TEST(ByExpertPlan, TileRowsRunToTheLastTilesEnd) {
  for (const auto& [rows, want] : {std::pair{1408u, 1407u}, {1409u, 1423u}, {1u, 15u}, {16u, 15u}, {17u, 31u}}) {
    const LaunchPlan plan = plan_of(tk(8, 8) + ",rows=" + std::to_string(rows));
    EXPECT_EQ(range_named(plan, "tile_row").max_value, u128{want}) << rows;
    EXPECT_EQ(range_named(plan, "tile_row").type, range_named(plan, "dst_index").type);
  }
  // The rows axis' end (2^20 rows): the tile rows stay far below 2^32.
  const LaunchPlan top = plan_of(tk(1, 1) + ",rows=" + std::to_string(1u << 20) + ",cols=32");
  EXPECT_EQ(range_named(top, "tile_row").max_value, u128{1u << 20} - 1);
  EXPECT_EQ(predict(top, sm90()).index_wrap(), "safe");
  // With a small x limit the rows of one launch are a multiple of 16, so every launch's tiles
  // start on a multiple of 16 and the last tile's end is the same.
  DeviceLimits small = sm90();
  small.max_grid_x = 3;
  std::uint64_t last_end = 0;
  for (const GemvLaunch& l : gemv_launches(GemvGeometry::by_expert, shape(8, 8, 128, 1409), small)) {
    EXPECT_EQ(l.row_offset % 16, 0u);
    last_end = std::max(last_end, l.row_offset + l.spec.grid.x * 16);
  }
  EXPECT_EQ(last_end, 1424u);
}

// The count and scatter grids stop at kExpertGroupMaxBlocks and stride over the rest.
TEST(ByExpertPlan, PrePassGridIsCapped) {
  EXPECT_EQ(launch_named(plan_of(tk(8192, 8)), "moe_expert_count").grid.x, 65536u / 256);
  const LaunchPlan big = plan_of(tk(1u << 20, 8));
  EXPECT_EQ(launch_named(big, "moe_expert_count").grid.x, kExpertGroupMaxBlocks);
  EXPECT_EQ(launch_named(big, "moe_expert_scatter").grid.x, kExpertGroupMaxBlocks);
  EXPECT_EQ(launch_named(big, "moe_expert_scan").grid, (Dim3{1, 1, 1}));
  // 2^20 activation rows: 17 quantize tiles of 65535 rows first, then the pre-pass and the GEMV.
  ASSERT_EQ(big.launches.size(), 17u + 3 + 1);
  EXPECT_EQ(big.launches[17].name, "moe_expert_count");
  EXPECT_EQ(big.launches.back().name, "moe_vec_by_expert");
}

// With small limits, the GEMV is tiled at the x and y limits, each launch within them, and the
// launches cover every (expert slot, row) exactly once.
TEST(ByExpertPlan, TilesAtTheGridLimitsAndCoversEverySlotAndRowOnce) {
  DeviceLimits small = sm90();
  small.max_grid_x = 7;
  small.max_grid_y = 5;
  for (const auto& [experts, pairs_tokens, rows] :
       {std::tuple{128, 64, 1408}, {23, 2, 29}, {4096, 1000, 4}, {5, 1, 28}, {6, 8, 1}}) {
    const MoeCallShape s = shape(pairs_tokens, 1, experts, rows, 32);
    const std::uint64_t slots = std::min<std::uint64_t>(experts, s.pairs());
    std::map<std::pair<std::uint64_t, std::uint64_t>, int> seen;
    for (const GemvLaunch& l : gemv_launches(GemvGeometry::by_expert, s, small)) {
      EXPECT_LE(l.spec.grid.x, small.max_grid_x);
      EXPECT_LE(l.spec.grid.y, small.max_grid_y);
      EXPECT_EQ(l.spec.grid.z, std::min<std::uint64_t>(ceil_div(s.pairs(), kByExpertPairsPerSlice), small.max_grid_z));
      EXPECT_EQ(l.row_offset % kByExpertRowsPerBlock, 0u);
      for (std::uint64_t y = 0; y < l.spec.grid.y; ++y)
        for (std::uint64_t x = 0; x < l.spec.grid.x; ++x)
          for (std::uint64_t w = 0; w < kByExpertRowsPerBlock; ++w) {
            const std::uint64_t row = l.row_offset + x * kByExpertRowsPerBlock + w;
            if (row < s.rows) ++seen[{l.expert_slot_offset + y, row}];
          }
    }
    EXPECT_EQ(seen.size(), slots * s.rows) << experts << " " << rows;
    for (const auto& [at, n] : seen) {
      EXPECT_EQ(n, 1);
      EXPECT_LT(at.first, slots);
    }
  }
}

// Pairs sliced along z: one slice up to kByExpertPairsPerSlice pairs (decode reads each used
// expert's rows once), one more per 4096 pairs after, never more than the z limit (2^32 pairs).
TEST(ByExpertPlan, SlicesAlongZStayWithinTheLimit) {
  EXPECT_EQ(plan_of(tk(64, 8)).launches.back().grid.z, 1u);
  EXPECT_EQ(plan_of(tk(512, 8)).launches.back().grid.z, 1u);    // 4096 pairs
  EXPECT_EQ(plan_of(tk(513, 8)).launches.back().grid.z, 2u);    // 4104
  EXPECT_EQ(plan_of(tk(8192, 8)).launches.back().grid.z, 16u);  // 65536
  const LaunchPlan top = plan_of(tk(1u << 26, 64) + ",rows=1,cols=32");  // 2^32 pairs: 2^20 wanted
  EXPECT_EQ(top.launches.back().grid.z, sm90().max_grid_z);
  EXPECT_EQ(predict(top, sm90()).outcome, "accept");
  DeviceLimits small = sm90();
  small.max_grid_z = 3;
  EXPECT_EQ(gemv_launches(GemvGeometry::by_expert, shape(100000, 1, 8), small).back().spec.grid.z, 3u);
}

// The slices of one expert's pairs cover them exactly once, whatever the count and slice number
// (the device kernel calls the same pair_slice).
TEST(ByExpertPlan, PairSlicesCoverEveryPairOnce) {
  for (std::uint64_t count : {0ull, 1ull, 3ull, 4ull, 4095ull, 4097ull, 65537ull, 1000003ull})
    for (std::uint64_t slices : {1ull, 2ull, 3ull, 16ull, 65535ull}) {
      std::uint64_t next = 0;
      for (std::uint64_t z = 0; z < slices; ++z) {
        const PairSlice s = pair_slice(count, slices, z);
        if (s.lo >= s.hi) continue;
        EXPECT_EQ(s.lo, next) << count << " " << slices << " " << z;
        next = s.hi;
      }
      EXPECT_EQ(next, count) << count << " " << slices;
    }
  // Near 2^32 pairs on one expert with 65535 slices: no overflow, the last slice ends at count.
  const std::uint64_t big = std::uint64_t{1} << 32;
  EXPECT_EQ(pair_slice(big, 65535, 65534).hi, big);
}

// The real y limit is 65535; the experts axis stops at 4096 (one scan block), so one launch on
// every preset, and more experts than the scan can take are refused by the host, not launched.
TEST(ByExpertPlan, ExpertsBeyondTheScanAreRefusedByTheHost) {
  const LaunchPlan plan = plan_of(tk(8191, 8) + ",experts=4096");
  ASSERT_EQ(plan.launches.size(), 1u + 3u + 1u);
  EXPECT_EQ(plan.launches.back().grid.y, 4096u);
  EXPECT_NO_THROW(expert_group_launches(GemvGeometry::by_expert, shape(1, 1, kExpertGroupMaxExperts)));
  EXPECT_THROW(expert_group_launches(GemvGeometry::by_expert, shape(1, 1, kExpertGroupMaxExperts + 1)),
               std::invalid_argument);
  EXPECT_TRUE(expert_group_launches(GemvGeometry::fixed, shape(1, 1, 8)).empty());
}

// Below every 32-bit bound: the 32-bit instantiation (uint32 list entries, 4 bytes each); the
// pre-pass's offsets and strided pair index are uint64 always.
TEST(ByExpertPlan, NarrowKernelAtTheDecodeShapes) {
  const LaunchPlan plan = plan_of(tk(64, 8));
  EXPECT_EQ(range_named(plan, "dst_index").type, IndexType::uint32);
  EXPECT_EQ(range_named(plan, "group_list_entry").type, IndexType::uint32);
  EXPECT_EQ(range_named(plan, "group_list_entry").max_value, u128{511});
  EXPECT_EQ(range_named(plan, "group_offset").type, IndexType::uint64);
  EXPECT_EQ(range_named(plan, "group_pair_index").max_value, u128{511} + 1024);  // moe_expert_group's stride
  EXPECT_EQ(range_named(plan, "group_expert_id").max_value, u128{127});
  EXPECT_EQ(expert_group_layout(gguf::moe_shape_from(params_for(*moe, tk(64, 8))), GemvIndexWidth::bits32).list_entry_bytes,
            4u);
}

// dst_index = pairs*rows - 1 crosses 2^32 at 3,050,403 pairs of 1408 rows (moe_vec_plan_test):
// the same boundary moves by_expert to the 64-bit kernel, list entries included.
TEST(ByExpertPlan, WideKernelFromTheDstBoundary) {
  for (const auto& [tokens, top_k, want] : {std::tuple{1'016'800, 3, IndexType::uint32}, {1'016'801, 3, IndexType::int64}}) {
    const LaunchPlan plan = plan_of(tk(tokens, top_k));
    EXPECT_EQ(range_named(plan, "dst_index").type, want);
    EXPECT_EQ(range_named(plan, "group_list_entry").type, want);
    const Prediction pr = predict(plan, sm90());
    EXPECT_EQ(pr.outcome, "accept") << pr.detail;
    EXPECT_EQ(pr.index_wrap(), "safe");
  }
}

// pairs near 2^31 and at 2^32 (tokens 2^26, top_k 64: the axes' ends): accepted, nothing wraps,
// and the strided pair index passes 2^32 in uint64 where a uint32 loop counter would wrap.
TEST(ByExpertPlan, PairCountsNear2To31And2To32) {
  for (const auto& [tokens, top_k] : {std::pair{(1u << 25) - 1, 64}, {1u << 25, 64}, {(1u << 26) - 1, 64}, {1u << 26, 64}}) {
    const std::string o = tk(tokens, top_k) + ",rows=1,cols=32";
    SCOPED_TRACE(o);
    const LaunchPlan plan = plan_of(o);
    const Prediction pr = predict(plan, sm90());
    EXPECT_EQ(pr.outcome, "accept") << pr.detail;
    EXPECT_EQ(pr.index_wrap(), "safe");
    const u128 pairs = u128{tokens} * top_k;
    EXPECT_EQ(range_named(plan, "group_list_entry").max_value, pairs - 1);
    EXPECT_EQ(range_named(plan, "group_offset").max_value, pairs);
    EXPECT_EQ(launch_named(plan, "moe_expert_count").grid.x, kExpertGroupMaxBlocks);
    if (pairs == k2to32) {
      EXPECT_GE(range_named(plan, "group_pair_index").max_value, k2to32);  // why it is uint64
      EXPECT_EQ(range_named(plan, "group_offset").type, IndexType::uint64);
    }
    // The list entry takes the GEMV's width (here int64: token*token_stride passes 2^32).
    EXPECT_EQ(range_named(plan, "group_list_entry").type, range_named(plan, "dst_index").type);
    EXPECT_EQ(range_named(plan, "act_offset").type, IndexType::int64);
  }
}

TEST(ByExpertPlan, ScratchLayoutIsAlignedAndSizedInCheckedArithmetic) {
  const MoeCallShape s = shape(8, 8, 128);
  const ExpertGroupLayout l = expert_group_layout(s, GemvIndexWidth::bits32);
  EXPECT_EQ(l.counts, 0u);
  EXPECT_EQ(l.offsets, 128u * 8);
  EXPECT_EQ(l.cursor, 128u * 8 + 129 * 8 + 8);  // 1032 rounded up to 1040
  for (std::uint64_t at : {l.counts, l.offsets, l.cursor, l.used, l.n_used, l.list}) EXPECT_EQ(at % 16, 0u);
  EXPECT_LT(l.n_used, l.list);
  EXPECT_GE(l.bytes, l.list + 64 * 4);
  EXPECT_EQ(expert_group_layout(s, GemvIndexWidth::bits64).bytes - l.list, 64u * 8);
  // 2^32 pairs of 8-byte entries: 32 GiB of list, exactly.
  const ExpertGroupLayout big = expert_group_layout(shape(1u << 26, 64, 4096), GemvIndexWidth::bits64);
  EXPECT_EQ(big.bytes - big.list, std::uint64_t{1} << 35);
}

// The GEMV reduces a lane's 32 sums (row r, pair j at r*8 + j) together: at distance h = 16, 8, 4,
// 2, 1 every lane keeps the half of its sums its lane bit h selects (the upper half when set),
// sends the other, and adds its partner's copy of each kept sum (gemv_by_expert.cuh,
// transposed_step). Modelled here on 32 simulated lanes in lockstep: lane l must end with sum l,
// bit-equal to warp_sum_butterfly's value (v += shfl_xor(v, mask) for mask 16..1, lane 0's) of
// that sum, on values whose sum depends on the order of the additions.
TEST(ByExpertPlan, TransposedReductionIsTheButterflyBitForBit) {
  static_assert(kByExpertRowsPerWarp * kByExpertPairBatch == 32);
  std::mt19937 rng(33);
  std::uniform_real_distribution<float> mag(-1.0f, 1.0f);
  std::uniform_int_distribution<int> exp(-30, 30);
  for (int trial = 0; trial < 200; ++trial) {
    std::array<std::array<float, 32>, 32> v{};  // v[lane][sum]
    for (auto& lane : v)
      for (float& x : lane) x = std::ldexp(mag(rng), exp(rng));  // wide exponents: rounding everywhere
    std::array<float, 32> butterfly{};
    for (int m = 0; m < 32; ++m) {
      std::array<float, 32> w{};
      for (int l = 0; l < 32; ++l) w[l] = v[l][m];
      for (int mask = 16; mask >= 1; mask >>= 1) {
        std::array<float, 32> next{};
        for (int l = 0; l < 32; ++l) next[l] = w[l] + w[l ^ mask];
        w = next;
      }
      for (int l = 1; l < 32; ++l) ASSERT_EQ(std::bit_cast<std::uint32_t>(w[l]), std::bit_cast<std::uint32_t>(w[0]));
      butterfly[m] = w[0];
    }
    for (int h = 16; h >= 1; h >>= 1) {
      std::array<std::array<float, 32>, 32> send{};
      for (int l = 0; l < 32; ++l)
        for (int i = 0; i < h; ++i) send[l][i] = (l & h) != 0 ? v[l][i] : v[l][h + i];
      for (int l = 0; l < 32; ++l)
        for (int i = 0; i < h; ++i) v[l][i] = ((l & h) != 0 ? v[l][h + i] : v[l][i]) + send[l ^ h][i];
    }
    for (int l = 0; l < 32; ++l)
      ASSERT_EQ(std::bit_cast<std::uint32_t>(v[l][0]), std::bit_cast<std::uint32_t>(butterfly[l])) << "lane " << l;
  }
}

RC_GTEST_PROP(ByExpertPlanProperty, NeverRefusedNothingWraps, ()) {
  const auto tokens = *rc::gen::inRange<std::uint64_t>(1, (1u << 26) + 1);
  const auto experts = *rc::gen::inRange<std::uint64_t>(1, 4097);
  const auto top_k = *rc::gen::inRange<std::uint64_t>(1, std::min<std::uint64_t>(experts, 64) + 1);
  const auto rows = *rc::gen::inRange<std::uint64_t>(1, (1u << 20) + 1);
  const auto proj = *rc::gen::element<std::string>("gate_up", "down");
  const auto quant = *rc::gen::elementOf(weight_quant_types());
  const auto cols = quant_traits(quant).qk * *rc::gen::inRange<std::uint64_t>(1, 64);
  const std::string params = tk(tokens, top_k) + ",experts=" + std::to_string(experts) + ",rows=" +
                             std::to_string(rows) + ",cols=" + std::to_string(cols) + ",proj=" + proj +
                             ",quant=" + std::string(to_string(quant));
  const Prediction pr = predict_for(*moe, "by_expert", params);
  RC_ASSERT(pr.outcome == "accept");
  RC_ASSERT(pr.index_wrap() == "safe");
  const LaunchPlan plan = moe->plan(params_for(*moe, params), "by_expert", sm90());
  RC_ASSERT(plan.launches.back().grid.y == std::min(experts, tokens * top_k));
  RC_ASSERT(plan.launches.back().grid.z >= 1 && plan.launches.back().grid.z <= sm90().max_grid_z);
}

}  // namespace
}  // namespace gridfuzz::gguf::testing
