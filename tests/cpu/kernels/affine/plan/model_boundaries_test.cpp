// The sweep's boundary search on a predicate that is not monotone: the legacy LM head along
// tokens is accepted, then refused (l = 0) from ceil(2^31/V), then accepted again with a wrapped l
// once T*V wraps past 2^32. Every change must be found at its exact value.
#include <gtest/gtest.h>

#include "gridfuzz/search/strategies.hpp"
#include "plan_test_support.hpp"

namespace gridfuzz::affine::test {
namespace {

std::vector<ModelBoundary> launch_changes(std::uint64_t vocab) {
  std::vector<ModelBoundary> out;
  for (const auto& b : model_boundaries(dense_kernel(), "legacy", dense_params(16, vocab), sm90()))
    if (b.axis == "tokens" && b.signal == "launch") out.push_back(b);
  return out;
}

TEST(ModelBoundaries, FindsEveryChangeOfANonMonotoneLaunchPredicate) {
  for (const std::uint64_t vocab : {32000ull, 128256ull, 151936ull}) {
    const auto changes = launch_changes(vocab);
    ASSERT_GE(changes.size(), 2u) << "vocab " << vocab;
    // First: refused from ceil(2^31/V) (l = 0, so a zero grid).
    const std::int64_t t0 = static_cast<std::int64_t>(((1ull << 31) + vocab - 1) / vocab);
    EXPECT_TRUE(changes[0].becomes_bad);
    EXPECT_EQ(changes[0].first_bad, t0) << "vocab " << vocab;
    EXPECT_EQ(changes[0].rule, "refuse:grid.zero");
    // Then accepted again somewhere past 2^32/V, where the int32 product wraps to a positive l.
    EXPECT_FALSE(changes[1].becomes_bad);
    EXPECT_GT(static_cast<std::uint64_t>(changes[1].first_bad) * vocab, 1ull << 32);
    // Each change is exact: one step before it the prediction is on the other side.
    for (const auto& c : changes) {
      const bool bad_at = !predict(dense_kernel().plan(dense_params(c.first_bad, vocab), "legacy", sm90()), sm90()).accepted();
      const bool bad_before =
          !predict(dense_kernel().plan(dense_params(c.first_bad - 1, vocab), "legacy", sm90()), sm90()).accepted();
      EXPECT_EQ(bad_at, c.becomes_bad);
      EXPECT_NE(bad_at, bad_before);
    }
  }
}

}  // namespace
}  // namespace gridfuzz::affine::test
