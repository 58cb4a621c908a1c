#include "gridfuzz/reports/csv_row.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <bit>
#include <cmath>
#include <limits>

namespace gridfuzz::reports {
namespace {

TEST(CsvRow, StartsWithTheSchemaVersionAndEmptyColumns) {
  const CsvRow row;
  EXPECT_EQ(row.get("schema"), kSchemaVersion);
  for (std::size_t i = 1; i < kColumnCount; ++i) EXPECT_TRUE(row.at(i).empty());
}

TEST(CsvRow, SetsAndGetsByName) {
  CsvRow row;
  row.set("kernel", "moe_vec");
  EXPECT_EQ(row.get("kernel"), "moe_vec");
  EXPECT_EQ(row.at(*column_index("kernel")), "moe_vec");
  EXPECT_FALSE(row.is_empty("kernel"));
  row.clear("kernel");
  EXPECT_TRUE(row.is_empty("kernel"));
}

TEST(CsvRow, UnknownColumnThrowsWithItsName) {
  CsvRow row;
  EXPECT_THROW(row.set("kernal", "x"), UnknownColumnError);
  try {
    (void)row.get("grid_w");
    FAIL() << "expected UnknownColumnError";
  } catch (const UnknownColumnError& error) {
    EXPECT_EQ(error.column(), "grid_w");
  }
  EXPECT_THROW((void)row.get_int("tokenz"), UnknownColumnError);
}

TEST(CsvRow, IntegersRoundTrip) {
  CsvRow row;
  row.set_int("tokens", -5);
  EXPECT_EQ(row.get("tokens"), "-5");
  EXPECT_EQ(row.get_int("tokens"), -5);
  row.set_int("rows", std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(row.get_int("rows"), std::numeric_limits<std::int64_t>::min());
  row.set_uint("seed", std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(row.get("seed"), "18446744073709551615");
  EXPECT_EQ(row.get_uint("seed"), std::numeric_limits<std::uint64_t>::max());
  EXPECT_FALSE(row.get_int("vocab").has_value());  // empty: the axis does not apply
}

TEST(CsvRow, MaxIndexPast2To64) {
  CsvRow row;
  const u128 value = (static_cast<u128>(1) << 64) + 1;
  row.set_u128("max_index", value);
  EXPECT_EQ(row.get("max_index"), "18446744073709551617");
  EXPECT_TRUE(row.get_u128("max_index") == value);
  row.set("max_index", "340282366920938463463374607431768211456");  // 2^128: too big
  EXPECT_THROW((void)row.get_u128("max_index"), std::invalid_argument);
}

TEST(CsvRow, MalformedNumbersThrowNamingColumnAndValue) {
  CsvRow row;
  row.set("tokens", "12abc");
  try {
    (void)row.get_int("tokens");
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("tokens"), std::string::npos) << message;
    EXPECT_NE(message.find("12abc"), std::string::npos) << message;
  }
  row.set("seed", "-1");
  EXPECT_THROW((void)row.get_uint("seed"), std::invalid_argument);
  row.set("gbps", "1.5 ");
  EXPECT_THROW((void)row.get_double("gbps"), std::invalid_argument);
  row.set("rows", "+3");
  EXPECT_THROW((void)row.get_int("rows"), std::invalid_argument);
}

TEST(CsvRow, NonFiniteDoublesHaveOneSpelling) {
  CsvRow row;
  row.set_double("gbps", std::nan(""));
  EXPECT_EQ(row.get("gbps"), "nan");
  EXPECT_TRUE(std::isnan(*row.get_double("gbps")));
  row.set_double("gbps", -std::numeric_limits<double>::infinity());
  EXPECT_EQ(row.get("gbps"), "-inf");
  EXPECT_EQ(row.get_double("gbps"), -std::numeric_limits<double>::infinity());
  row.set_double("gbps", 0.1);
  EXPECT_EQ(row.get("gbps"), "0.1");  // shortest form, not 0.10000000000000001
}

RC_GTEST_PROP(CsvRowProperty, DoublesRoundTripBitExact, (double value)) {
  RC_PRE(!std::isnan(value));
  CsvRow row;
  row.set_double("time_ms_median", value);
  const auto back = row.get_double("time_ms_median");
  RC_ASSERT(back.has_value());
  RC_ASSERT(std::bit_cast<std::uint64_t>(*back) == std::bit_cast<std::uint64_t>(value));
}

RC_GTEST_PROP(CsvRowProperty, DoublesFromBitPatternsRoundTrip, (std::uint64_t bits)) {
  const double value = std::bit_cast<double>(bits);
  RC_PRE(!std::isnan(value));
  CsvRow row;
  row.set_double("max_abs_err", value);
  RC_ASSERT(std::bit_cast<std::uint64_t>(*row.get_double("max_abs_err")) == bits);
}

RC_GTEST_PROP(CsvRowProperty, IntegersRoundTrip, (std::int64_t signed_value,
                                                  std::uint64_t unsigned_value)) {
  CsvRow row;
  row.set_int("grid_z", signed_value);
  row.set_uint("seed", unsigned_value);
  RC_ASSERT(row.get_int("grid_z") == signed_value);
  RC_ASSERT(row.get_uint("seed") == unsigned_value);
}

}  // namespace
}  // namespace gridfuzz::reports
