// Expert ids as a router gives them: distinct per token, in range, the highest expert present,
// reproducible from the seed.
#include <gtest/gtest.h>

#include <array>
#include <set>
#include <stdexcept>
#include <vector>

#include "adapter/routing_ids.hpp"

namespace gridfuzz::llamacpp {
namespace {

TEST(LlamacppRoutingIds, DistinctPerTokenInRangeHighestExpertUsed) {
  for (const auto& [tokens, top_k, experts] : std::vector<std::array<std::uint64_t, 3>>{
           {512, 8, 256}, {100, 8, 8}, {64, 4, 5}, {3, 1, 1}, {1000, 2, 8}}) {
    const auto ids = routing_ids(tokens, top_k, experts, 7);
    ASSERT_EQ(ids.size(), tokens * top_k);
    EXPECT_EQ(ids[0], static_cast<std::int32_t>(experts - 1));
    for (std::uint64_t t = 0; t < tokens; ++t) {
      std::set<std::int32_t> seen(ids.begin() + t * top_k, ids.begin() + (t + 1) * top_k);
      EXPECT_EQ(seen.size(), top_k) << "token " << t << " repeats an expert";
      EXPECT_GE(*seen.begin(), 0);
      EXPECT_LT(*seen.rbegin(), static_cast<std::int32_t>(experts));
    }
  }
}

TEST(LlamacppRoutingIds, SeedDecidesAndTopKAboveExpertsIsRefused) {
  EXPECT_EQ(routing_ids(50, 8, 256, 3), routing_ids(50, 8, 256, 3));
  EXPECT_NE(routing_ids(50, 8, 256, 3), routing_ids(50, 8, 256, 4));
  EXPECT_THROW(routing_ids(1, 9, 8, 1), std::invalid_argument);
}

}  // namespace
}  // namespace gridfuzz::llamacpp
