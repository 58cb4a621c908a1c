#include "gridfuzz/reports/vocabulary.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gridfuzz/core/vocabulary.hpp"
#include "test_support.hpp"

namespace gridfuzz::reports {
namespace {

using Check = std::optional<std::string> (*)(std::string_view);

void expect_accepted(Check check, const std::vector<std::string>& values) {
  for (const auto& value : values) {
    const auto error = check(value);
    EXPECT_FALSE(error.has_value()) << "'" << value << "' rejected: " << error.value_or("");
  }
}

// Each rejection must quote the bad value, so a log line says what to fix.
void expect_rejected(Check check, const std::vector<std::string>& values) {
  for (const auto& value : values) {
    const auto error = check(value);
    ASSERT_TRUE(error.has_value()) << "'" << value << "' accepted";
    EXPECT_NE(error->find("'" + value + "'"), std::string::npos) << *error;
  }
}

const std::vector<std::string> kRules = {
    "grid.zero", "grid.x", "grid.y", "grid.z", "block.x", "block.y",
    "block.z", "block.threads", "smem.default", "smem.optin", "regs"};

TEST(Vocabulary, PredictedAcceptsEveryDocumentedForm) {
  std::vector<std::string> values = {"accept", "host-error:tokens*top_k overflows int32",
                                     "host-error:oom"};
  for (const auto& rule : kRules) values.push_back("refuse:" + rule);
  expect_accepted(check_predicted, values);
}

TEST(Vocabulary, PredictedRejectsNearMisses) {
  expect_rejected(check_predicted,
                  {"", "Accept", "accept ", " accept", "accepted", "refuse", "refuse:",
                   "refuse:grid.w", "refuse:grid", "refuse:GRID.Z", "refuse: grid.z",
                   "refuse:grid.z ", "refuse:regs,", "host-error:", "host-error: leading",
                   "host-error:two\nlines", "host_error:x", "timeout", "refused:grid.z"});
}

TEST(Vocabulary, ObservedAcceptsEveryDocumentedForm) {
  expect_accepted(check_observed,
                  {"accept", "refuse:CUDA_ERROR_INVALID_VALUE", "refuse:cudaErrorInvalidConfiguration",
                   "fault:CUDA_ERROR_ILLEGAL_ADDRESS", "fault:signal 11 (SIGSEGV)", "timeout",
                   "host-error:cannot allocate inputs", "oom", "skipped:no CUDA device",
                   "skipped:exceeds --max-bytes", "static"});
}

TEST(Vocabulary, ObservedRejectsNearMisses) {
  expect_rejected(check_observed,
                  {"", "refuse:", "refuse:CUDA ERROR", "refuse:9_LIVES", "refuse:grid.z", "fault:",
                   "skipped:", "skipped", "timeout:10s", "OOM", "Static", "host-error:",
                   "fault:tab\there", "accept\r"});
}

TEST(Vocabulary, VerdictAcceptsEveryDocumentedForm) {
  expect_accepted(check_verdict, {"pass", "fail:mismatch", "fail:out-of-bounds-write",
                                  "fail:unwritten", "fail:fault", "fail:timeout",
                                  "expected-fail", "unexpected-pass", "model-mismatch", "skipped",
                                  "static"});
}

TEST(Vocabulary, VerdictRejectsNearMisses) {
  expect_rejected(check_verdict, {"", "fail:", "fail", "fail:two words", "fail:a,b", "PASS",
                                  "passed", "expected_fail", "unexpected-pass ", "skipped:x",
                                  "model mismatch", "fail :mismatch"});
}

// The failure kinds are the engine's (FailureKind): every one is accepted, no other word.
TEST(Vocabulary, VerdictFailureKindsAreTheEngines) {
  std::vector<std::string> every;
  for (const FailureKind kind : kFailureKinds) every.push_back("fail:" + std::string(to_string(kind)));
  expect_accepted(check_verdict, every);
  expect_rejected(check_verdict, {"fail:flaky", "fail:Mismatch", "fail:out_of_bounds_write", "fail:refuse"});
  EXPECT_NE(check_verdict("fail:flaky")->find("unknown failure kind"), std::string::npos);
}

TEST(Vocabulary, IndexWrapAndIndexType) {
  expect_accepted(check_index_wrap, {"safe", "wrap:dst_offset", "wrap:x_byte_offset"});
  expect_rejected(check_index_wrap, {"", "wrap:", "wrap", "Safe", "wraps:dst", "wrap: dst"});
  expect_accepted(check_index_type, {"", "int32", "uint32", "int64", "uint64"});
  expect_rejected(check_index_type, {"int", "i32", "INT32", "int128", "size_t"});
}

// The tier column: empty (no sweep made the case) or a tier's word, and the row keeps it as a value.
TEST(Vocabulary, TierIsEmptyOrATiersWord) {
  expect_accepted(check_tier, {"", "defaults", "profiles", "default-sizes", "profile-sizes", "speed", "random",
                               "shrink"});
  expect_rejected(check_tier, {"all", "none", "Random", "default_sizes", " random", "random ", "shrinking", "-"});
  for (const CaseTier tier : kCaseTiers) {
    CsvRow row = testing::valid_row();
    row.set("tier", std::string(to_string(tier)));
    EXPECT_FALSE(check_row(row).has_value()) << to_string(tier);
    EXPECT_EQ(row.tier(), tier);
    row.clear("tier");
    EXPECT_FALSE(row.tier().has_value());
  }
}

TEST(Vocabulary, ValidRowPasses) {
  const auto error = check_row(testing::valid_row());
  EXPECT_FALSE(error.has_value()) << *error;
}

TEST(Vocabulary, RowCheckNamesTheColumn) {
  const auto rejected_because = [](const char* column, const char* value) {
    CsvRow row = testing::valid_row();
    row.set(column, value);
    const auto error = check_row(row);
    EXPECT_TRUE(error.has_value()) << column << "='" << value << "' accepted";
    if (error) {
      EXPECT_NE(error->find(column), std::string::npos) << *error;
      EXPECT_NE(error->find(value), std::string::npos) << *error;
    }
  };
  rejected_because("verdict", "fial:mismatch");
  rejected_because("predicted", "refuse:grid.w");
  rejected_because("observed", "crash");
  rejected_because("index_wrap", "wrap:");
  rejected_because("index_type", "int8");
  rejected_because("tier", "boundary");
  rejected_because("tokens", "8k");
  rejected_because("grid_z", "65536.0");
  rejected_because("max_index", "-1");
  rejected_because("gbps", "fast");
  rejected_because("schema", "one");

  CsvRow empty_verdict = testing::valid_row();
  empty_verdict.clear("verdict");
  EXPECT_TRUE(check_row(empty_verdict).has_value());
}

TEST(Vocabulary, RowCheckAcceptsEmptyAxesAndLargeValues) {
  CsvRow row = testing::valid_row();
  row.clear("quant");
  row.clear("vocab");
  row.clear("index_type");
  row.clear("gbps");
  row.set("max_index", "1267650600228229401496703205376");  // 2^100
  row.set("seed", "18446744073709551615");
  row.set("grid_z", "-2147483648");  // an int32 computation gone negative
  row.set_double("gbps", 3350.25);
  row.set("time_ms_median", "nan");
  const auto error = check_row(row);
  EXPECT_FALSE(error.has_value()) << *error;
}

}  // namespace
}  // namespace gridfuzz::reports
