// Timing classes from median/min/max/samples: interval separation plus the relative threshold.
#include <gtest/gtest.h>

#include "crafted_rows.hpp"
#include "gridfuzz/reports/timing_compare.hpp"

namespace gridfuzz::reports {
namespace {

TimingSamples t(double median, double min, double max, std::int64_t samples = 10) {
  return {median, min, max, samples};
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
}

TEST(TimingCompare, Names) {
  EXPECT_EQ(to_string(TimingChange::same), "SAME");
  EXPECT_EQ(to_string(TimingChange::faster), "FASTER");
  EXPECT_EQ(to_string(TimingChange::slower), "SLOWER");
  EXPECT_EQ(to_string(TimingChange::unsure), "UNSURE");
}

}  // namespace
}  // namespace gridfuzz::reports
