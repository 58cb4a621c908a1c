// The `started` column's form (reports/utc_time.hpp) and float32 times at float32 precision
// (CsvRow::set_float).
#include "gridfuzz/reports/utc_time.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <charconv>
#include <cmath>

#include "gridfuzz/reports/csv_row.hpp"

namespace gridfuzz::reports {
namespace {

TEST(UtcTime, WritesIso8601InUtcToTheMillisecond) {
  EXPECT_EQ(utc_time_text(0), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(utc_time_text(1796038765731), "2026-11-30T11:39:25.731Z");  // a run_id of evidence/
  EXPECT_EQ(utc_time_text(951782400000), "2000-02-29T00:00:00.000Z");   // a leap day
  EXPECT_EQ(utc_time_text(253402300799999), "9999-12-31T23:59:59.999Z");
}

TEST(UtcTime, ReadsOnlyThatForm) {
  EXPECT_EQ(parse_utc_time("2026-11-30T11:39:25.731Z"), 1796038765731);
  for (const char* bad : {"", "2026-11-30T11:39:25Z", "2026-11-30 11:39:25.731Z", "2026-11-30T11:39:25.731",
                          "2026-13-01T00:00:00.000Z", "2026-02-29T00:00:00.000Z", "2026-11-30T11:60:00.000Z",
                          "1969-12-31T23:59:59.999Z", "2026-11-30T11:39:25.7a1Z", "+026-11-30T11:39:25.731Z"})
    EXPECT_FALSE(parse_utc_time(bad).has_value()) << bad;
}

RC_GTEST_PROP(UtcTime, RoundTrips, ()) {
  const auto ms = *rc::gen::inRange<std::int64_t>(0, 253402300800000);
  RC_ASSERT(parse_utc_time(utc_time_text(ms)) == ms);
}

TEST(CsvRowFloat, WritesAFloatAtItsOwnPrecision) {
  CsvRow row;
  row.set_float("time_ms_median", 0.032688f);
  EXPECT_EQ(row.get("time_ms_median"), "0.032688");
  row.set_double("time_ms_median", 0.032688f);  // the same value as a double: spurious digits
  EXPECT_EQ(row.get("time_ms_median"), "0.03268799930810928");
  row.set_float("time_ms_median", 69.25f);
  EXPECT_EQ(row.get("time_ms_median"), "69.25");
  row.set_float("time_ms_median", 1e-7f);
  EXPECT_EQ(row.get("time_ms_median"), "1e-07");
}

RC_GTEST_PROP(CsvRowFloat, ReadsBackToTheSameFloat, (float value)) {
  RC_PRE(std::isfinite(value));
  const std::string text = format_float(value);
  float back = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), back);
  RC_ASSERT(error == std::errc());
  RC_ASSERT(end == text.data() + text.size());
  RC_ASSERT(back == value);
  RC_ASSERT(parse_double(text).has_value());  // and the reader takes it
}

}  // namespace
}  // namespace gridfuzz::reports
