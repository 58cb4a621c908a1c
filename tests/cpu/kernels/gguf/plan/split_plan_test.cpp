// Split plans and tiled launches cover every output element exactly once.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>

#include "gridfuzz/gguf/formats.hpp"
#include "launch_geometry.hpp"
#include "plan_test_support.hpp"

namespace gridfuzz::gguf::testing {
namespace {

const auto moe = make_moe_vec_kernel();

// Rectangles [pair0, pair0+np) x [row0, row0+nr) of the launches partition [0,pairs) x [0,rows):
// total area equal and no two overlap (checked on the sorted tiles).
void assert_launches_partition_output(const std::vector<GemvLaunch>& launches, bool pairs_on_x, std::uint64_t pairs,
                                      std::uint64_t rows) {
  struct Tile { std::uint64_t p0, np, r0, nr; };
  std::vector<Tile> tiles;
  u128 area = 0;
  for (const auto& l : launches) {
    const std::uint64_t np = pairs_on_x ? l.spec.grid.x : (l.pairs_on_z ? l.spec.grid.z : l.spec.grid.y);
    const std::uint64_t nr = pairs_on_x ? l.spec.grid.y : l.spec.grid.x;
    RC_ASSERT(predict_launch(l.spec, sm90()).accepted);
    RC_ASSERT(l.pair_offset + np <= pairs);
    RC_ASSERT(l.row_offset + nr <= rows);
    tiles.push_back({l.pair_offset, np, l.row_offset, nr});
    area += u128{np} * nr;
  }
  RC_ASSERT(area == u128{pairs} * rows);
  for (std::size_t i = 0; i < tiles.size(); ++i)
    for (std::size_t j = i + 1; j < tiles.size() && j < i + 64; ++j) {
      const bool disjoint = tiles[i].p0 + tiles[i].np <= tiles[j].p0 || tiles[j].p0 + tiles[j].np <= tiles[i].p0 ||
                            tiles[i].r0 + tiles[i].nr <= tiles[j].r0 || tiles[j].r0 + tiles[j].nr <= tiles[i].r0;
      RC_ASSERT(disjoint);
    }
}

RC_GTEST_PROP(SplitPlanProperty, TokenPiecesPartitionTheBatchAndFitEveryLimit, ()) {
  const auto tokens = *rc::gen::inRange<std::uint64_t>(1, 1'000'001);
  const auto top_k = *rc::gen::inRange<std::uint64_t>(1, 17);
  const auto proj = *rc::gen::element<std::string>("gate_up", "down");
  const Params p = params_for(*moe, "tokens=" + std::to_string(tokens) + ",top_k=" + std::to_string(top_k) + ",proj=" + proj);
  const auto pieces = moe->bind(p, "legacy")->split(sm90());
  std::uint64_t next = 0;
  for (const SplitPiece& s : pieces) {
    RC_ASSERT(s.axis == "tokens");
    RC_ASSERT(s.begin == next);
    RC_ASSERT(s.end > s.begin);
    RC_ASSERT((s.end - s.begin) * top_k <= 65535u);  // its pairs (and, for down, its q8_1 rows) fit grid.z / grid.y
    next = s.end;
  }
  RC_ASSERT(next == tokens);
  // Every output element (pair p, row) belongs to the piece holding token p / top_k: exactly one.
}

RC_GTEST_PROP(SplitPlanProperty, FixedLaunchTilesPartitionTheOutput, ()) {
  MoeCallShape s;
  s.tokens = *rc::gen::inRange<std::uint64_t>(1, 1'000'001);
  s.top_k = *rc::gen::inRange<std::uint64_t>(1, 17);
  s.experts = 128;
  s.rows = *rc::gen::inRange<std::uint64_t>(1, 200'000);
  s.proj = *rc::gen::element(Projection::gate_up, Projection::down);
  DeviceLimits l = sm90();
  // Small limits as well, so rows and pairs tile in both directions.
  // (kept to a few thousand tiles so the property stays fast).
  if (*rc::gen::arbitrary<bool>()) {
    s.tokens = std::min<std::uint64_t>(s.tokens, 50'000);
    s.rows = std::min<std::uint64_t>(s.rows, 20'000);
    l.max_grid_x = *rc::gen::inRange<std::uint64_t>(1000, 5000);
    l.max_grid_y = l.max_grid_z = *rc::gen::inRange<std::uint64_t>(1000, 5000);
  }
  assert_launches_partition_output(gemv_launches(GemvGeometry::pairs_x, s, l), true, s.pairs(), s.rows);
  assert_launches_partition_output(gemv_launches(GemvGeometry::rows_x, s, l), false, s.pairs(), s.rows);
  const auto z = gemv_launches(GemvGeometry::zchunk, s, l);
  assert_launches_partition_output(z, false, s.pairs(), s.rows);
  for (const auto& launch : z) RC_ASSERT(launch.pair_offset % s.kernel_top_k() == 0);  // token-aligned chunks
}

TEST(SplitPlan, GemmaBatchOf8192SplitsIntoTwoPieces) {
  const auto pieces = moe->bind(params_for(*moe, "tokens=8192,top_k=8"), "legacy")->split(sm90());
  ASSERT_EQ(pieces.size(), 2u);
  EXPECT_EQ(pieces[0].end, 8191u);
  EXPECT_EQ(pieces[1].end, 8192u);
}

}  // namespace
}  // namespace gridfuzz::gguf::testing
