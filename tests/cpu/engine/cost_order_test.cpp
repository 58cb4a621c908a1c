// The boundary cases cheapest first (cost_order.hpp): the fits that price cases never measured,
// and the order's rules (measured times first, each target's cheapest case first, a shape's
// variants together, refused launches cheap, the speed tier left out). Targets are built by hand:
// the order reads only the cases' kernel, variant, params and the plan's sizes.
#include <gtest/gtest.h>

#include <algorithm>
#include <unistd.h>

#include <cmath>
#include <string>
#include <vector>

#include "gridfuzz/search/cost_order.hpp"
#include "../../support/run_gridfuzz.hpp"

namespace gridfuzz {
namespace {

using Outcome = CaseSize::Outcome;

Case make_case(const std::string& kernel, const std::string& variant, int tokens) {
  Params p;
  p.set("tokens", std::to_string(tokens));
  return Case{kernel, variant, p, 1};
}

// A target of `kernel` x `variant` with a case per entry of `tokens`, `bytes` each the case's bytes.
SweepTarget target(const std::string& kernel, const std::string& variant, const std::vector<int>& tokens,
                   const std::vector<std::uint64_t>& bytes, Outcome predicted = Outcome::runs) {
  SweepTarget t;
  t.variant = variant;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    t.boundary_cases.push_back(make_case(kernel, variant, tokens[i]));
    t.tiers.push_back(kDefaultBoundaries);
    t.sizes.push_back({.bytes = bytes[i], .threads = bytes[i], .predicted = predicted});
  }
  return t;
}

std::vector<std::string> replays(const std::vector<SweepTarget>& targets, const std::vector<CaseRef>& order) {
  std::vector<std::string> out;
  for (const CaseRef& r : order) out.push_back(targets[r.target].boundary_cases[r.index].replay());
  return out;
}

std::size_t position(const std::vector<std::string>& order, const Case& c) {
  return static_cast<std::size_t>(std::find(order.begin(), order.end(), c.replay()) - order.begin());
}

TEST(CostFit, APowerLawInBytesAndThreadsIsRecoveredFromItsPoints) {
  // ms = 0.5 * bytes^0.25 * threads^1.1, sizes spread independently.
  std::vector<std::pair<CaseSize, double>> points;
  for (std::uint64_t b = 1; b <= 4; ++b)
    for (std::uint64_t t = 1; t <= 3; ++t) {
      const CaseSize s{.bytes = b * 1000000, .threads = t * t * 10000};
      points.emplace_back(s, 0.5 * std::pow(1.0 + s.bytes, 0.25) * std::pow(1.0 + s.threads, 1.1));
    }
  const CostFit fit = fit_cost(points);
  ASSERT_TRUE(fit.ok);
  EXPECT_TRUE(fit.power_law);
  const CaseSize far{.bytes = 64000000, .threads = 1000000};  // outside what it was fitted on
  const double expected = 0.5 * std::pow(1.0 + far.bytes, 0.25) * std::pow(1.0 + far.threads, 1.1);
  EXPECT_NEAR(fit.at(far) / expected, 1.0, 1e-6);
}

TEST(CostFit, FewPointsGiveALineInBytesFromMedians) {
  // 4 points: the smallest quarter is one case (10 ms), the largest one (1010 ms at 1000 bytes).
  const CostFit fit = fit_cost({{{.bytes = 10}, 10}, {{.bytes = 500}, 300}, {{.bytes = 100}, 50}, {{.bytes = 1000}, 1010}});
  ASSERT_TRUE(fit.ok);
  EXPECT_FALSE(fit.power_law);
  EXPECT_DOUBLE_EQ(fit.fixed_ms, 10);
  EXPECT_DOUBLE_EQ(fit.ms_per_byte, 1.0);
  EXPECT_DOUBLE_EQ(fit.at({.bytes = 2000}), 2010);
  EXPECT_DOUBLE_EQ(fit.at({.bytes = 0}), 10);  // never below the fastest case fitted on
}

TEST(CostFit, SizesThatDoNotSpreadFallBackToTheLine) {
  // Every case launches the same threads: three coefficients cannot be fixed.
  std::vector<std::pair<CaseSize, double>> points;
  for (int i = 1; i <= 10; ++i) points.push_back({{.bytes = 1000u * i, .threads = 64}, 1.0 * i});
  const CostFit fit = fit_cost(points);
  ASSERT_TRUE(fit.ok);
  EXPECT_FALSE(fit.power_law);
  EXPECT_FALSE(fit_cost({}).ok);
}

TEST(CostOrder, WithNothingMeasuredTheSmallestBytesGoFirst) {
  const std::vector<SweepTarget> targets{target("k", "a", {1, 2, 3}, {300, 100, 200})};
  const auto order = replays(targets, cost_order(targets, {}, 1));
  ASSERT_EQ(order.size(), 3u);
  EXPECT_EQ(order[0], make_case("k", "a", 2).replay());
  EXPECT_EQ(order[1], make_case("k", "a", 3).replay());
  EXPECT_EQ(order[2], make_case("k", "a", 1).replay());
}

TEST(CostOrder, AMeasuredTimeOutranksTheSize) {
  const std::vector<SweepTarget> targets{target("k", "a", {1, 2, 3}, {100, 200, 300})};
  // The smallest case took a second before, the largest a millisecond.
  const MeasuredCaseMs measured{{make_case("k", "a", 1).id(), 1000.0}, {make_case("k", "a", 3).id(), 1.0},
                                {make_case("k", "a", 2).id(), 10.0}};
  const auto order = replays(targets, cost_order(targets, measured, 1));
  EXPECT_EQ(order.front(), make_case("k", "a", 3).replay());
  EXPECT_EQ(order.back(), make_case("k", "a", 1).replay());
  // Measured under another seed, the ids differ: nothing is known of them, bytes decide.
  const auto other_seed = replays(targets, cost_order(targets, measured, 7));
  EXPECT_EQ(other_seed.front(), make_case("k", "a", 1).replay());
}

TEST(CostOrder, ACaseNeverMeasuredTakesItsVariantsFit) {
  // Variant a measured at 9 sizes; the unmeasured case of 10^6 bytes, priced by the line through
  // them (threads equal bytes here: no power law), comes after the measured case of 100 ms that
  // has twice its bytes.
  SweepTarget t = target("k", "a", {1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
                         {10, 20, 30, 40, 50, 60, 70, 80, 1000000, 2000000});
  MeasuredCaseMs measured;
  for (int i = 1; i <= 8; ++i) measured[make_case("k", "a", i).id()] = 5.0 + 10.0 * i;
  measured[make_case("k", "a", 10).id()] = 100.0;
  const std::vector<SweepTarget> targets{t};
  const auto order = replays(targets, cost_order(targets, measured, 1));
  EXPECT_LT(position(order, make_case("k", "a", 10)), position(order, make_case("k", "a", 9)));
}

TEST(CostOrder, ARefusedLaunchNeverMeasuredIsPricedAsItsKernelsFastestCase) {
  // Huge but refused (it ends at the launch): before a small case that runs for a while.
  std::vector<SweepTarget> targets{target("k", "runs", {1, 2}, {100, 200}),
                                   target("k", "refused", {3}, {1u << 30}, Outcome::refused)};
  const MeasuredCaseMs measured{{make_case("k", "runs", 1).id(), 2.0}, {make_case("k", "runs", 2).id(), 500.0}};
  const auto order = replays(targets, cost_order(targets, measured, 1));
  EXPECT_LT(position(order, make_case("k", "refused", 3)), position(order, make_case("k", "runs", 2)));
}

TEST(CostOrder, AShapesVariantsStayTogether) {
  // Variants a and b at the same shapes: each shape's two cases are next to each other.
  const std::vector<SweepTarget> targets{target("k", "a", {1, 2, 3}, {100, 300, 200}),
                                         target("k", "b", {1, 2, 3}, {100, 300, 200})};
  const auto order = replays(targets, cost_order(targets, {}, 1));
  ASSERT_EQ(order.size(), 6u);
  for (int tokens : {1, 2, 3}) {
    const std::size_t a = position(order, make_case("k", "a", tokens)), b = position(order, make_case("k", "b", tokens));
    EXPECT_EQ(a + 1, b) << "tokens " << tokens;
  }
}

TEST(CostOrder, EachTargetsCheapestCaseComesBeforeEveryOtherCase) {
  // Target "dear" has only big cases; its cheapest still runs before the other target's second.
  const std::vector<SweepTarget> targets{target("cheap", "a", {1, 2, 3}, {1, 2, 3}),
                                         target("dear", "a", {1, 2}, {1000, 2000})};
  const auto order = replays(targets, cost_order(targets, {}, 1));
  EXPECT_EQ(position(order, make_case("dear", "a", 1)), 1u);
  EXPECT_EQ(position(order, make_case("dear", "a", 2)), 4u);
}

TEST(CostOrder, TheSpeedTierIsLeftOut) {
  SweepTarget t = target("k", "a", {1, 2}, {1, 2});
  t.tiers[1] = kSpeed;
  const std::vector<SweepTarget> targets{t};
  const auto order = cost_order(targets, {}, 1);
  ASSERT_EQ(order.size(), 1u);
  EXPECT_EQ(order[0], (CaseRef{0, 0}));
}

// The command: --order cost runs every planned case once, in another order than the tiers'; a
// --costs file that is not a gridfuzz CSV and an unknown order are refused before anything is written.
TEST(CostOrderCli, RunsTheSameCasesCheapestFirstAndRefusesBadInput) {
  const std::string dir = ::testing::TempDir() + "/cost-order-" + std::to_string(::getpid());
  ASSERT_EQ(testing::run_shell("mkdir -p " + dir).exit_code, 0);
  const std::string base = "--plugin " + std::string(GRIDFUZZ_SELFTEST_PLUGIN) +
                           " sweep selftest.flat_yz --static --device-preset sm_90 --cases 0 --csv ";
  ASSERT_EQ(testing::run_gridfuzz(base + dir + "/tiers.csv").exit_code, 0);
  const auto cost = testing::run_gridfuzz(base + dir + "/cost.csv --order cost --costs " + dir + "/tiers.csv");
  ASSERT_EQ(cost.exit_code, 0) << cost.output;
  // The tiers' CSV has no case_ms (static rows): it prices nothing, and says so.
  EXPECT_NE(cost.output.find("has no case_ms of this device"), std::string::npos) << cost.output;
  const auto ids = [&](const std::string& file) {
    return testing::run_shell("cut -d, -f3 " + dir + "/" + file + " | tail -n +2").output;
  };
  const std::string tiers_ids = ids("tiers.csv"), cost_ids = ids("cost.csv");
  EXPECT_NE(tiers_ids, cost_ids) << "the same order as the tiers'";
  EXPECT_EQ(testing::run_shell("cut -d, -f3 " + dir + "/tiers.csv | sort").output,
            testing::run_shell("cut -d, -f3 " + dir + "/cost.csv | sort").output);

  ASSERT_EQ(testing::run_shell("echo 'not,a,gridfuzz,csv' > " + dir + "/junk.csv").exit_code, 0);
  const auto junk = testing::run_gridfuzz(base + dir + "/junk-out.csv --order cost --costs " + dir + "/junk.csv");
  EXPECT_EQ(junk.exit_code, 2) << junk.output;
  EXPECT_EQ(testing::run_shell("test -e " + dir + "/junk-out.csv").exit_code, 1) << "written before the check";
  EXPECT_EQ(testing::run_gridfuzz(base + dir + "/bad.csv --order fastest").exit_code, 2);
  // One file per --costs: the kernel after it is the sweep's (as scripts/run puts its own options first).
  const auto kernel_after = testing::run_gridfuzz("--plugin " + std::string(GRIDFUZZ_SELFTEST_PLUGIN) +
                                                  " sweep --static --device-preset sm_90 --cases 0 --order cost --costs " +
                                                  dir + "/tiers.csv selftest.flat_yz --csv " + dir + "/after.csv");
  EXPECT_EQ(kernel_after.exit_code, 0) << kernel_after.output;
  EXPECT_EQ(testing::run_shell("cut -d, -f3 " + dir + "/after.csv | sort").output,
            testing::run_shell("cut -d, -f3 " + dir + "/cost.csv | sort").output);
  testing::run_shell("rm -rf " + dir);
}

}  // namespace
}  // namespace gridfuzz
