// Bisection finds the exact boundary of a synthetic predicate within its probe bound, and the
// model boundaries of the self-test kernel are where the limits say.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "gridfuzz/search/strategies.hpp"
#include "gridfuzz/search/sweep_plan.hpp"
#include "selftest_kernels.hpp"

using namespace gridfuzz;

RC_GTEST_PROP(BisectProperty, FindsTheExactThresholdWithinTheProbeBound, ()) {
  const std::int64_t lo = *rc::gen::inRange<std::int64_t>(0, 1000);
  const std::int64_t span = *rc::gen::inRange<std::int64_t>(0, 1ll << 40);
  const std::int64_t step = *rc::gen::element<std::int64_t>(1, 1, 32, 256);
  const std::int64_t hi = lo + span / step * step;
  // Threshold anywhere from "already bad at lo" to "never bad".
  const std::int64_t threshold = *rc::gen::inRange<std::int64_t>(lo, hi + 2);
  const BisectResult r = bisect_first_bad(lo, hi, step, [&](std::int64_t v) { return v >= threshold; });
  const std::int64_t points = (hi - lo) / step + 1;
  RC_ASSERT(r.probes <= static_cast<int>(std::ceil(std::log2(static_cast<double>(points)))) + 2);
  // The expected answer, computed directly on the grid.
  std::optional<std::int64_t> first;
  if (threshold <= hi) first = lo + (threshold - lo + step - 1) / step * step;
  RC_ASSERT(r.first_bad == first);
  if (first && *first > lo) RC_ASSERT(r.last_good == *first - step);
  if (!first) RC_ASSERT(r.last_good == hi);
}

TEST(Bisect, EdgeCases) {
  auto never = [](std::int64_t) { return false; };
  auto always = [](std::int64_t) { return true; };
  EXPECT_EQ(bisect_first_bad(5, 5, 1, never).last_good, 5);
  EXPECT_EQ(bisect_first_bad(5, 5, 1, always).first_bad, 5);
  EXPECT_FALSE(bisect_first_bad(5, 100, 1, always).last_good.has_value());
  EXPECT_EQ(bisect_first_bad(1, 1000000, 1, [](std::int64_t v) { return v >= 8192; }).first_bad, 8192);
}

TEST(ModelBoundaries, SelftestLegacyRowsBoundaryIs65536) {
  const auto k = selftest::make_flat_index_yz();
  const DeviceLimits lim = *device_preset("sm_90");
  const auto bounds = model_boundaries(*k, "legacy", Params::defaults(k->axes()), lim);
  bool found = false;
  for (const auto& b : bounds)
    if (b.axis == "rows" && b.signal == "launch") {
      EXPECT_EQ(b.first_bad, 65536);
      EXPECT_EQ(b.rule, "refuse:grid.z");
      found = true;
    }
  EXPECT_TRUE(found);
  for (const auto& b : model_boundaries(*k, "fixed", Params::defaults(k->axes()), lim))
    EXPECT_NE(b.signal, "launch") << "fixed refused on " << b.axis << " at " << b.first_bad;
}

TEST(FailureCorpus, TheCheckedInCorpusParses) {
  // Every entry must stay a valid replay string of a known kernel, or the GPU replay breaks.
  std::size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator(std::string(GRIDFUZZ_SOURCE_DIR) + "/properties/corpus")) {
    if (e.path().extension() != ".replay") continue;
    std::ifstream f(e.path());
    std::string line;
    ASSERT_TRUE(std::getline(f, line)) << e.path();
    const Case c = Case::parse_replay(line);
    EXPECT_EQ(e.path().stem().string(), c.id()) << "file name must be the case id";
    ++n;
  }
  EXPECT_GT(n, 0u);
}
