// The split reference and the fixed chunking both cover every output row / pair exactly once,
// with every piece under every limit.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>

#include "gridfuzz/affine/matmul_plan.hpp"
#include "plan_test_support.hpp"

namespace gridfuzz::affine {
namespace {

MatmulShape random_shape(bool gather) {
  MatmulShape s;
  s.gather = gather;
  s.group_size = *rc::gen::element(32, 64, 128);
  s.k = static_cast<std::uint64_t>(qmm_tile_k(s.group_size)) * *rc::gen::inRange<std::uint64_t>(1, 64);
  s.bits = *rc::gen::element(4, 8);
  if (gather) {
    const std::uint64_t tokens = *rc::gen::inRange<std::uint64_t>(1, 1 << 20);
    const std::uint64_t top_k = *rc::gen::inRange<std::uint64_t>(1, 17);
    s.m = 1;
    s.n = 128 * *rc::gen::inRange<std::uint64_t>(1, 8193);
    s.batches = tokens * top_k;
    s.x_batches = tokens;
    s.experts = *rc::gen::inRange<std::uint64_t>(top_k, 513);
  } else {
    s.m = *rc::gen::inRange<std::uint64_t>(1, (1 << 22) + 1);
    s.n = 128 * *rc::gen::inRange<std::uint64_t>(1, (1 << 15) + 1);
  }
  return s;
}

// Counts of each output row (dense) or pair (gather) in [begin, end) ranges; exactly one each.
void assert_exact_cover(std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges, std::uint64_t total) {
  std::sort(ranges.begin(), ranges.end());
  std::uint64_t next = 0;
  for (const auto& [b, e] : ranges) {
    RC_ASSERT(b == next);
    RC_ASSERT(e > b);
    next = e;
  }
  RC_ASSERT(next == total);
}

void check_cover(const MatmulShape& s) {
  const DeviceLimits lim = test::sm90();
  const std::uint64_t total = s.gather ? s.batches : s.m;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> pieces;
  for (const SplitPiece& p : split_pieces(s, lim)) {
    RC_ASSERT(p.axis == (s.gather ? "pairs" : "tokens"));
    pieces.emplace_back(p.begin, p.end);
  }
  assert_exact_cover(pieces, total);

  std::vector<std::pair<std::uint64_t, std::uint64_t>> refs;
  for (const AffineLaunch& l : reference_launches(s, lim)) {
    RC_ASSERT(predict_launch(l.spec, lim).accepted);
    RC_ASSERT(l.wide_index);
    const std::uint64_t b = s.gather ? l.batch_begin : l.row_begin;
    refs.emplace_back(b, b + static_cast<std::uint64_t>(s.gather ? l.l : l.m));
  }
  assert_exact_cover(refs, total);

  std::vector<std::pair<std::uint64_t, std::uint64_t>> fixed;
  for (const AffineLaunch& l : plan_matmul(s, Variant::fixed, lim).launches) {
    RC_ASSERT(predict_launch(l.spec, lim).accepted);
    const std::uint64_t b = s.gather ? l.batch_begin : l.row_begin;
    fixed.emplace_back(b, b + static_cast<std::uint64_t>(s.gather ? l.l : l.m));
    // A row chunk's largest in-chunk offset row*n + col stays inside int32 (the upstream fix's cap).
    if (!s.gather) RC_ASSERT(static_cast<std::uint64_t>(l.m) * s.n <= 2147483647ull || l.m == 1);
  }
  assert_exact_cover(fixed, total);
}

RC_GTEST_PROP(SplitCoverage, DenseRowsCoveredExactlyOnce, ()) { check_cover(random_shape(false)); }
RC_GTEST_PROP(SplitCoverage, GatherPairsCoveredExactlyOnce, ()) { check_cover(random_shape(true)); }

TEST(SplitCoverage, ReferencePiecesDifferFromProductionChunks) {
  // 65536 qwen3 pairs: production 65535 + 1, reference 32768 + 32768.
  MatmulShape s{.gather = true, .m = 1, .n = 768, .k = 2048, .batches = 65536, .x_batches = 8192, .experts = 128};
  const auto pieces = split_pieces(s, test::sm90());
  ASSERT_EQ(pieces.size(), 2u);
  EXPECT_EQ(pieces[0].end, 32768u);
  const auto fixed = plan_matmul(s, Variant::fixed, test::sm90()).launches;
  ASSERT_EQ(fixed.size(), 2u);
  EXPECT_EQ(fixed[0].l, 65535);
  EXPECT_EQ(fixed[1].l, 1);
}

}  // namespace
}  // namespace gridfuzz::affine
