// quantize_q8_1 plans: legacy (one launch) refused at 65536 rows; fixed tiles never refused.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "launch_geometry.hpp"
#include "plan_test_support.hpp"

namespace gridfuzz::gguf::testing {
namespace {

const auto quantize = make_quantize_q8_1_kernel();

TEST(QuantizePlan, LegacyFirstRefusedAt65536Rows) {
  EXPECT_EQ(predict_for(*quantize, "legacy", "rows=65536").outcome, "refuse:grid.y");
  EXPECT_EQ(predict_for(*quantize, "legacy", "rows=65535").outcome, "accept");
  EXPECT_EQ(predict_for(*quantize, "fixed", "rows=65536").outcome, "accept");
}

TEST(QuantizePlan, GridIsPaddedColumnsOver256ByRows) {
  const LaunchPlan plan = quantize->plan(params_for(*quantize, "rows=7,cols=704"), "legacy", sm90());
  ASSERT_EQ(plan.launches.size(), 1u);
  EXPECT_EQ(plan.launches[0].grid, (Dim3{1024 / 256, 7, 1}));
  EXPECT_EQ(plan.launches[0].block, (Dim3{256, 1, 1}));
}

// quantize_chunks (the closed form quantize_indices uses) says what the launches say: the largest
// grid.y and the last chunk's first row, for every geometry, at tile multiples and either side of
// them, with a small grid.y limit (many tiles) and the H200's.
TEST(QuantizePlan, ChunksInClosedFormEqualTheLaunches) {
  DeviceLimits small = sm90();
  small.max_grid_y = 7;
  for (const DeviceLimits& l : {small, sm90()})
    for (const QuantizeGeometry g : {QuantizeGeometry::one_launch, QuantizeGeometry::upstream_tiles, QuantizeGeometry::tiles_64})
      for (const std::uint64_t rows : {0ull, 1ull, 6ull, 7ull, 8ull, 14ull, 15ull, 65534ull, 65535ull, 65536ull, 131070ull,
                                       131071ull, 786421ull, (1ull << 32) - 1, 1ull << 32, (1ull << 32) + 1}) {
        if (l.max_grid_y == 7 && rows > 1'000'000) continue;  // 600 million launches
        std::uint64_t max_rows = 0, last_offset = 0;
        for (const QuantizeLaunch& q : quantize_launches(g, rows, 4096, l)) {
          max_rows = std::max(max_rows, q.spec.grid.y);
          last_offset = std::max(last_offset, q.row_offset);
        }
        const QuantizeChunks c = quantize_chunks(g, rows, l);
        EXPECT_EQ(c.max_rows, max_rows) << "rows " << rows << ", grid.y limit " << l.max_grid_y << ", geometry " << int(g);
        EXPECT_EQ(c.last_offset, last_offset) << "rows " << rows << ", grid.y limit " << l.max_grid_y << ", geometry " << int(g);
      }
}

// vLLM's tiled quantizer: host off*kx in int wraps at the first chunk offset >= 2^31/kx
// (docs/KERNELS.md, "Boundary formulas": K=2816 -> off 786,420, the 13th chunk).
TEST(QuantizePlan, UpstreamTileOffsetWrapsWhereKernelsMdSays) {
  const DeviceLimits l = sm90();
  auto offset_safe = [&](std::uint64_t rows) {
    for (const IndexRange& r : quantize_indices(QuantizeGeometry::upstream_tiles, rows, 2816, l))
      if (r.name == "q8_1_chunk_input_offset") return check_index(r).safe;
    ADD_FAILURE() << "no chunk offset index";
    return true;
  };
  EXPECT_TRUE(offset_safe(786'420));       // last chunk starts at 720,885
  EXPECT_FALSE(offset_safe(786'421));      // a chunk starts at 786,420: 786,420*2816 >= 2^31
}

// tiles_64 declares uint32 indices exactly when the largest (rows * padded - 1) fits, and the
// predictor then finds them safe; one more row and the 64-bit kernel is declared.
TEST(QuantizePlan, FixedPicksTheUint32KernelExactlyBelow2To32) {
  const std::uint64_t cols = 4096;  // padded = 4096: 2^20 rows make exactly 2^32 elements
  const auto type_of = [&](std::uint64_t rows) {
    IndexType t = IndexType::int32;
    for (const IndexRange& r : quantize_indices(QuantizeGeometry::tiles_64, rows, cols, sm90())) {
      EXPECT_TRUE(check_index(r).safe) << r.name << " at " << rows << " rows";
      if (r.name == "q8_1_output_index") t = r.type;
    }
    return t;
  };
  EXPECT_TRUE(quantize_fits_uint32(1u << 20, cols));
  EXPECT_EQ(type_of(1u << 20), IndexType::uint32);
  EXPECT_FALSE(quantize_fits_uint32((1u << 20) + 1, cols));
  EXPECT_EQ(type_of((1u << 20) + 1), IndexType::int64);
  // Padding counts: 2816 columns pad to 3072.
  EXPECT_TRUE(quantize_fits_uint32((1ull << 32) / 3072, 2816));
  EXPECT_FALSE(quantize_fits_uint32((1ull << 32) / 3072 + 1, 2816));
}

RC_GTEST_PROP(QuantizePlanProperty, FixedTilesCoverEveryRowOnceAndAreAccepted, ()) {
  const auto rows = *rc::gen::inRange<std::uint64_t>(1, 3'000'000);
  const auto cols = *rc::gen::inRange<std::uint64_t>(1, 20'000);
  const auto launches = quantize_launches(QuantizeGeometry::tiles_64, rows, cols, sm90());
  std::uint64_t next = 0;
  for (const auto& l : launches) {
    RC_ASSERT(l.row_offset == next);
    RC_ASSERT(predict_launch(l.spec, sm90()).accepted);
    RC_ASSERT(l.spec.grid.x * 256 == q8_1_padded_cols(cols));
    next += l.spec.grid.y;
  }
  RC_ASSERT(next == rows);
}

}  // namespace
}  // namespace gridfuzz::gguf::testing
