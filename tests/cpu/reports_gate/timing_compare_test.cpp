// Timing classes: the relative threshold and the absolute floor, then the noise: a Mann-Whitney
// U test of the raw samples where both runs kept them, interval separation where they did not.
#include <gtest/gtest.h>

#include "crafted_rows.hpp"
#include "gridfuzz/reports/timing_compare.hpp"

namespace gridfuzz::reports {
namespace {

TimingSamples t(double median, double min, double max, std::int64_t samples = 10) {
  return {median, min, max, samples, {}};
}

// Raw samples (median, min, max and count from them).
TimingSamples raw(std::vector<double> ms) { return *timing_of_samples(std::move(ms)); }

std::vector<double> scaled(const std::vector<double>& v, double factor) {
  std::vector<double> out;
  for (const double x : v) out.push_back(x * factor);
  return out;
}

// The p-values in the comments are scipy.stats.mannwhitneyu(baseline, current,
// alternative="two-sided") (scipy 1.17.1) for the same vectors.
const std::vector<double> kTight{1.00, 1.02, 0.99, 1.01, 1.03, 0.98, 1.00, 1.02, 0.99, 1.01};

TEST(TimingCompareRaw, IdenticalDistributionsAreSame) {
  const auto c = compare_timing(raw(kTight), raw(kTight));
  EXPECT_EQ(c.change, TimingChange::same) << c.reason;
  // Shuffled, the same values: still SAME (the order taken does not matter to the test).
  const auto d = compare_timing(raw(kTight), raw({1.01, 0.99, 1.02, 1.00, 0.98, 1.03, 1.01, 0.99, 1.02, 1.00}));
  EXPECT_EQ(d.change, TimingChange::same) << d.reason;
  EXPECT_EQ(d.relative, 0);
}

TEST(TimingCompareRaw, ACleanTwentyPercentShiftIsSlowerByTheRankTest) {
  const auto c = compare_timing(raw(kTight), raw(scaled(kTight, 1.2)));  // p = 0.000175
  EXPECT_EQ(c.change, TimingChange::slower) << c.reason;
  EXPECT_EQ(c.test, NoiseTest::mann_whitney);
  ASSERT_TRUE(c.p_value.has_value());
  EXPECT_NEAR(*c.p_value, 0.0001746242085521927, 1e-12);
  EXPECT_NE(c.reason.find("Mann-Whitney U p=1.7e-04"), std::string::npos) << c.reason;
  const auto f = compare_timing(raw(scaled(kTight, 1.2)), raw(kTight));
  EXPECT_EQ(f.change, TimingChange::faster) << f.reason;
}

TEST(TimingCompareRaw, OverlappingNoiseWithMediansFifteenPercentApartIsUnsure) {
  // Medians 1.025 and 1.175 (+14.6%), beyond the threshold; p = 0.272.
  const auto c = compare_timing(raw({1.00, 0.80, 1.30, 0.95, 1.10, 0.70, 1.40, 1.05, 0.90, 1.20}),
                                raw({1.15, 0.85, 1.50, 1.20, 1.00, 0.75, 1.60, 1.10, 1.30, 1.25}));
  EXPECT_EQ(c.change, TimingChange::unsure) << c.reason;
  EXPECT_NEAR(c.relative, 0.14634146341463405, 1e-9);
  ASSERT_TRUE(c.p_value.has_value());
  EXPECT_NEAR(*c.p_value, 0.2723141220596529, 1e-12);
  EXPECT_NE(c.reason.find(">= 0.05"), std::string::npos) << c.reason;
  // The level is an option: at alpha 0.3 the same samples count as slower.
  TimingOptions loose;
  loose.alpha = 0.3;
  EXPECT_EQ(compare_timing(raw({1.00, 0.80, 1.30, 0.95, 1.10, 0.70, 1.40, 1.05, 0.90, 1.20}),
                           raw({1.15, 0.85, 1.50, 1.20, 1.00, 0.75, 1.60, 1.10, 1.30, 1.25}), loose).change,
            TimingChange::slower);
}

// Where the two rules part: one slow outlier makes the ranges overlap (the interval test cannot
// tell), the ranks still can (p = 0.0027); three tight samples a side are disjoint (the interval
// test calls it) but three are too few for the ranks (p = 0.1, the least p of 3 against 3).
TEST(TimingCompareRaw, TheRankTestDecidesWhereTheIntervalTestWouldNot) {
  const std::vector<double> with_outlier{1.00, 1.01, 0.99, 1.02, 1.00, 0.98, 1.01, 1.00, 0.99, 1.60};
  const std::vector<double> slower{1.20, 1.21, 1.19, 1.22, 1.20, 1.18, 1.21, 1.20, 1.19, 1.23};
  const auto ranks = compare_timing(raw(with_outlier), raw(slower));
  EXPECT_EQ(ranks.change, TimingChange::slower) << ranks.reason;
  TimingSamples old_base = raw(with_outlier), old_now = raw(slower);
  old_base.raw_ms.clear();  // as a 1.6 row reads: the same summary, no samples
  const auto interval = compare_timing(old_base, old_now);
  EXPECT_EQ(interval.change, TimingChange::unsure) << interval.reason;
  EXPECT_EQ(interval.test, NoiseTest::interval);
  EXPECT_FALSE(interval.p_value.has_value());
  EXPECT_NE(interval.reason.find("interval test"), std::string::npos) << interval.reason;

  const auto three = compare_timing(raw({1.0, 1.01, 1.02}), raw({1.2, 1.21, 1.22}));
  EXPECT_EQ(three.change, TimingChange::unsure) << three.reason;
  EXPECT_NEAR(*three.p_value, 0.1, 1e-12);
  TimingSamples three_old = raw({1.0, 1.01, 1.02});
  three_old.raw_ms.clear();
  EXPECT_EQ(compare_timing(three_old, raw({1.2, 1.21, 1.22})).change, TimingChange::slower);
}

TEST(TimingCompareRaw, TiedSamplesAreRankedTogether) {
  // Event times are quantised (0.5 us steps here): many ties; p = 0.00236 with the tie correction.
  const auto c = compare_timing(raw({1, 1, 1, 1, 1, 2, 2, 2, 2, 2}), raw({2, 2, 2, 2, 2, 3, 3, 3, 3, 3}));
  EXPECT_EQ(c.change, TimingChange::slower) << c.reason;
  EXPECT_NEAR(*c.p_value, 0.002357069903963183, 1e-12);
  // Every value the same on both sides is no change at all.
  EXPECT_EQ(compare_timing(raw({2, 2, 2, 2}), raw({2, 2, 2, 2})).change, TimingChange::same);
}

TEST(TimingCompareRaw, TheSizeRulesComeFirst) {
  // A clear shift of 5% (p tiny) is still SAME: under the threshold.
  EXPECT_EQ(compare_timing(raw(kTight), raw(scaled(kTight, 1.05))).change, TimingChange::same);
  // A clear 20% shift of a 10 us call is under the absolute floor.
  EXPECT_EQ(compare_timing(raw(scaled(kTight, 0.01)), raw(scaled(kTight, 0.012))).change, TimingChange::same);
  // Fewer raw samples than min_samples: too few, whatever the test would say.
  const auto few = compare_timing(raw({1.0, 1.01}), raw({1.5, 1.51}));
  EXPECT_EQ(few.change, TimingChange::unsure) << few.reason;
  EXPECT_EQ(few.test, NoiseTest::none);
}

TEST(TimingCompare, NoisyButEqualIsSame) {
  // Wide, overlapping ranges, medians 3% apart: noise.
  const auto c = compare_timing(t(1.00, 0.80, 1.30), t(1.03, 0.85, 1.40));
  EXPECT_EQ(c.change, TimingChange::same) << c.reason;
  EXPECT_NEAR(c.relative, 0.03, 1e-9);
}

TEST(TimingCompare, DisjointButBelowTheThresholdIsSame) {
  // A real but small (5%) change does not count: the threshold is what matters to the gate.
  const auto c = compare_timing(t(1.00, 0.99, 1.01), t(1.05, 1.04, 1.06));
  EXPECT_EQ(c.change, TimingChange::same) << c.reason;
}

TEST(TimingCompare, TwentyPercentSlowerWithDisjointRangesIsSlower) {
  const auto c = compare_timing(t(1.00, 0.98, 1.03), t(1.20, 1.17, 1.25));
  EXPECT_EQ(c.change, TimingChange::slower) << c.reason;
  EXPECT_NEAR(c.relative, 0.20, 1e-9);
}

TEST(TimingCompare, MicrosecondJitterUnderTheAbsoluteFloorIsSame) {
  // Seen on the H200 between two machines: a 16.6 us case at 20.3 us, ranges disjoint.
  const auto jitter = compare_timing(t(0.01662, 0.01546, 0.01843), t(0.02034, 0.01946, 0.0256));
  EXPECT_EQ(jitter.change, TimingChange::same) << jitter.reason;
  // The same ratio on a case long enough to time is a real slow-down.
  const auto real = compare_timing(t(1.662, 1.546, 1.843), t(2.034, 1.946, 2.56));
  EXPECT_EQ(real.change, TimingChange::slower) << real.reason;
  // And the floor is an option.
  TimingOptions strict;
  strict.min_delta_ms = 0;
  EXPECT_EQ(compare_timing(t(0.01662, 0.01546, 0.01843), t(0.02034, 0.01946, 0.0256), strict).change,
            TimingChange::slower);
}

TEST(TimingCompare, TwentyPercentFasterIsFaster) {
  const auto c = compare_timing(t(1.00, 0.98, 1.03), t(0.80, 0.78, 0.82));
  EXPECT_EQ(c.change, TimingChange::faster) << c.reason;
}

TEST(TimingCompare, BigChangeWithOverlappingRangesIsUnsure) {
  const auto c = compare_timing(t(1.00, 0.70, 1.60), t(1.25, 0.90, 1.70));
  EXPECT_EQ(c.change, TimingChange::unsure) << c.reason;
  EXPECT_NE(c.reason.find("overlap"), std::string::npos);
}

TEST(TimingCompare, TooFewSamplesIsUnsure) {
  const auto c = compare_timing(t(1.00, 1.00, 1.00, 1), t(1.50, 1.50, 1.50, 1));
  EXPECT_EQ(c.change, TimingChange::unsure) << c.reason;
}

TEST(TimingCompare, ThresholdIsAnOption) {
  const auto base = t(1.00, 0.99, 1.01), now = t(1.05, 1.04, 1.06);
  EXPECT_EQ(compare_timing(base, now, {0.10, 3}).change, TimingChange::same);
  EXPECT_EQ(compare_timing(base, now, {0.02, 3}).change, TimingChange::slower);
}

TEST(TimingCompare, UntimedRowsHaveNoTiming) {
  CsvRow row = testing::make_row("gguf.moe_vec", "fixed", {{"tokens", "64"}});
  EXPECT_FALSE(timing_of(row).has_value());
  testing::set_timing(row, 2.0, 1.9, 2.2, 7);
  const auto timing = timing_of(row);
  ASSERT_TRUE(timing.has_value());
  EXPECT_EQ(timing->median_ms, 2.0);
  EXPECT_EQ(timing->min_ms, 1.9);
  EXPECT_EQ(timing->max_ms, 2.2);
  EXPECT_EQ(timing->samples, 7);
  EXPECT_TRUE(timing->raw_ms.empty());  // a row without time_samples_ms (schema 1.6 and older)
  row.set("time_samples_ms", "2 1.9 2.2 2 2.1 1.95 2.05");
  EXPECT_EQ(timing_of(row)->raw_ms, (std::vector<double>{2, 1.9, 2.2, 2, 2.1, 1.95, 2.05}));
  row.set("time_samples_ms", "2  1.9");
  EXPECT_THROW(timing_of(row), std::invalid_argument);
}

TEST(TimingCompare, Names) {
  EXPECT_EQ(to_string(TimingChange::same), "SAME");
  EXPECT_EQ(to_string(TimingChange::faster), "FASTER");
  EXPECT_EQ(to_string(TimingChange::slower), "SLOWER");
  EXPECT_EQ(to_string(TimingChange::unsure), "UNSURE");
}

}  // namespace
}  // namespace gridfuzz::reports
