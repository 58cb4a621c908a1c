// The Mann-Whitney U test against scipy: every expected U and p below is what
// scipy.stats.mannwhitneyu(x, y, alternative="two-sided") (scipy 1.17.1, default method="auto")
// printed for the same vectors, or (the first) what the exact distribution gives by hand.
#include "gridfuzz/reports/mann_whitney.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace gridfuzz::reports {
namespace {

using V = std::vector<double>;

TEST(MannWhitney, CompletelySeparatedSmallSamplesUseTheExactDistribution) {
  // Every x below every y: U = 0. Of the C(10, 5) = 252 equally likely arrangements, one has
  // U = 0 and one U = 25, so two-sided p = 2/252.
  const auto r = mann_whitney_u(V{1, 2, 3, 4, 5}, V{6, 7, 8, 9, 10});
  EXPECT_EQ(r.u, 0);
  EXPECT_TRUE(r.exact);
  EXPECT_NEAR(r.p, 2.0 / 252, 1e-15);
  // The mirror: U counts the pairs x wins.
  EXPECT_EQ(mann_whitney_u(V{6, 7, 8, 9, 10}, V{1, 2, 3, 4, 5}).u, 25);
}

TEST(MannWhitney, InterleavedSmallSamplesMatchScipy) {
  const auto r = mann_whitney_u(V{1.1, 2.5, 0.3, 4.0}, V{2.0, 3.1, 5.2, 6.6, 0.9});
  EXPECT_EQ(r.u, 6);
  EXPECT_TRUE(r.exact);
  EXPECT_NEAR(r.p, 0.4126984126984127, 1e-12);
}

TEST(MannWhitney, TiesGetMidRanksAndTheTieCorrectedNormalApproximation) {
  const auto r = mann_whitney_u(V{1, 2, 2, 3, 3, 3}, V{2, 3, 4, 4, 5, 5});
  EXPECT_EQ(r.u, 5.5);  // a tie counts half a pair
  EXPECT_FALSE(r.exact);  // ties: scipy's "auto" takes the approximation
  EXPECT_NEAR(r.p, 0.047967873742731204, 1e-12);
  const auto ten = mann_whitney_u(V{1, 1, 1, 1, 1, 2, 2, 2, 2, 2}, V{2, 2, 2, 2, 2, 3, 3, 3, 3, 3});
  EXPECT_EQ(ten.u, 12.5);
  EXPECT_NEAR(ten.p, 0.002357069903963183, 1e-12);
}

TEST(MannWhitney, LargerSamplesUseTheNormalApproximation) {
  const V base{1.00, 1.02, 0.99, 1.01, 1.03, 0.98, 1.00, 1.02, 0.99, 1.01};
  V shifted;
  for (const double v : base) shifted.push_back(v * 1.2);
  const auto r = mann_whitney_u(base, shifted);
  EXPECT_EQ(r.u, 0);
  EXPECT_FALSE(r.exact);
  EXPECT_NEAR(r.p, 0.0001746242085521927, 1e-12);
}

TEST(MannWhitney, IdenticalSamplesAreNoEvidence) {
  const V x{1.0, 1.1, 0.9, 1.2, 1.05};
  const auto r = mann_whitney_u(x, x);
  EXPECT_EQ(r.u, 12.5);
  EXPECT_EQ(r.p, 1.0);
  EXPECT_EQ(mann_whitney_u(V{2, 2, 2, 2}, V{2, 2, 2}).p, 1.0);  // every value tied: no variance
  EXPECT_EQ(mann_whitney_u(V{}, V{1, 2}).p, 1.0);
}

}  // namespace
}  // namespace gridfuzz::reports
