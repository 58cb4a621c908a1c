// A row read back holds its outcome columns as values (CsvRow::outcome, row_outcome.hpp), parsed
// once where the text enters the row, and the reports classify by them: one row of each verdict,
// written as CSV text and read back.
#include "gridfuzz/reports/row_outcome.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gridfuzz/reports/case_outcome.hpp"
#include "gridfuzz/reports/csv_reader.hpp"
#include "gridfuzz/reports/junit.hpp"
#include "gridfuzz/reports/point_outcome.hpp"
#include "test_support.hpp"

namespace gridfuzz::reports {
namespace {

// The row as a file of one row, and the row read back from it.
CsvRow read_back(const CsvRow& row) {
  std::string line;
  for (std::size_t i = 0; i < kColumnCount; ++i) {
    if (i) line += ',';
    const std::string& value = row.at(i);
    line += value.find_first_of(",\"\n") == std::string::npos ? value : "\"" + value + "\"";
  }
  const auto result = parse_csv(testing::header_text() + line + "\n", "one-row.csv");
  EXPECT_EQ(result.rows.size(), 1u);
  return result.rows.empty() ? CsvRow() : result.rows.front();
}

enum class JUnit { passed, failed, skipped };

JUnit junit_of(const CsvRow& row) {
  const std::string xml = render_junit({row});
  if (xml.find("<failure ") != std::string::npos) return JUnit::failed;
  if (xml.find("<skipped ") != std::string::npos) return JUnit::skipped;
  return JUnit::passed;
}

struct Case {
  std::string verdict, observed, predicted, index_wrap;
  Verdict expected;
  Outcome picture;
  bool predicted_only;
  std::optional<bool> observed_fails;
  JUnit junit;
};

std::vector<Case> every_verdict() {
  using V = Verdict::Kind;
  std::vector<Case> cases{
      {"pass", "accept", "accept", "safe", Verdict::of(V::pass), Outcome::pass, false, false, JUnit::passed},
      {"expected-fail", "refuse:CUDA_ERROR_INVALID_VALUE", "refuse:grid.z", "safe", Verdict::of(V::expected_fail),
       Outcome::refused, false, true, JUnit::passed},
      {"expected-fail", "host-error:count <= 0", "host-error:count <= 0", "safe", Verdict::of(V::expected_fail),
       Outcome::refused, false, true, JUnit::passed},
      {"expected-fail", "fault:CUDA_ERROR_ILLEGAL_ADDRESS", "accept", "wrap:dst_offset", Verdict::of(V::expected_fail),
       Outcome::wrapped, false, true, JUnit::passed},
      {"expected-fail", "accept", "accept", "safe", Verdict::of(V::expected_fail), Outcome::known, false, true,
       JUnit::passed},
      {"unexpected-pass", "accept", "accept", "safe", Verdict::of(V::unexpected_pass), Outcome::disagrees, false, false,
       JUnit::failed},
      {"model-mismatch", "refuse:CUDA_ERROR_INVALID_VALUE", "accept", "safe", Verdict::of(V::model_mismatch),
       Outcome::disagrees, false, true, JUnit::failed},
      {"skipped", "skipped:over-budget", "accept", "safe", Verdict::of(V::skipped), Outcome::skipped, false,
       std::nullopt, JUnit::skipped},
      {"static", "static", "refuse:grid.z", "safe", Verdict::of(V::static_only), Outcome::refused, true, std::nullopt,
       JUnit::skipped},
      {"static", "static", "accept", "wrap:arg:n", Verdict::of(V::static_only), Outcome::wrapped, true, std::nullopt,
       JUnit::skipped},
      {"static", "static", "accept", "safe", Verdict::of(V::static_only), Outcome::pass, true, std::nullopt,
       JUnit::skipped},
  };
  for (const FailureKind kind : kFailureKinds)
    cases.push_back({"fail:" + std::string(to_string(kind)), "accept", "accept", "safe", Verdict::failed(kind),
                     Outcome::failed, false, true, JUnit::failed});
  cases.push_back({"fail:oom", "oom", "accept", "safe", Verdict::failed(FailureKind::oom), Outcome::skipped, false, true,
                   JUnit::failed});
  return cases;
}

TEST(RowOutcome, EveryVerdictReadsBackAsItsValueAndClassifiesByIt) {
  for (const Case& c : every_verdict()) {
    CsvRow row = testing::valid_row();
    row.set("verdict", c.verdict);
    row.set("observed", c.observed);
    row.set("predicted", c.predicted);
    row.set("index_wrap", c.index_wrap);
    const CsvRow back = read_back(row);
    const std::string what = c.verdict + " / " + c.observed + " / " + c.predicted + " / " + c.index_wrap;
    EXPECT_EQ(back, row) << what;
    const RowOutcome& o = back.outcome();
    EXPECT_EQ(o.verdict, c.expected) << what;
    EXPECT_EQ(o.observed, Observed::parse(c.observed)) << what;
    ASSERT_TRUE(o.observed.has_value()) << what;
    EXPECT_EQ(o.predicted, PredictedOutcome::parse(c.predicted)) << what;
    ASSERT_TRUE(o.predicted.has_value()) << what;
    EXPECT_EQ(o.index_wrap, IndexWrap::parse(c.index_wrap)) << what;
    ASSERT_TRUE(o.index_wrap.has_value()) << what;
    EXPECT_EQ(o.fails_run(), c.expected.fails_run()) << what;

    EXPECT_EQ(point_outcome(back), (PointOutcome{c.picture, c.predicted_only})) << what;
    EXPECT_EQ(observed_fails(back), c.observed_fails) << what;
    EXPECT_EQ(predicted_fails(back), c.predicted != "accept" || c.index_wrap != "safe") << what;
    EXPECT_EQ(junit_of(back), c.junit) << what;
  }
}

TEST(RowOutcome, FollowsTheTextWhateverSetsIt) {
  CsvRow row = testing::valid_row();
  EXPECT_EQ(row.outcome().verdict, Verdict::of(Verdict::Kind::expected_fail));
  EXPECT_EQ(row.outcome().predicted, PredictedOutcome::refuse(Rule::grid_z));
  EXPECT_EQ(row.outcome().index_wrap, IndexWrap::wrap("dst_offset"));
  EXPECT_EQ(row.outcome().observed, (Observed{Observed::Kind::refuse, "CUDA_ERROR_INVALID_VALUE"}));
  row.set("verdict", "fail:unwritten");
  EXPECT_EQ(row.outcome().verdict, Verdict::failed(FailureKind::unwritten));
  row.set_at(*column_index("verdict"), "pass");
  EXPECT_EQ(row.outcome().verdict, Verdict::of(Verdict::Kind::pass));
  row.clear("verdict");
  EXPECT_FALSE(row.outcome().verdict.has_value());
  EXPECT_FALSE(CsvRow().outcome().verdict.has_value());
}

// fail:nondeterministic (the self-check: two identical calls differ) is a failure of its own kind,
// read from a hand-made row through the CSV like any other word.
TEST(RowOutcome, KnowsTheNondeterministicVerdict) {
  CsvRow row = testing::valid_row();
  row.set("observed", "accept");
  row.set("oracle", "split:exact:24 unwritten:0 cpu:250/256 self:differ:24");
  row.set("verdict", "fail:nondeterministic");
  const CsvRow back = read_back(row);
  const RowOutcome& o = back.outcome();
  EXPECT_EQ(o.verdict, Verdict::failed(FailureKind::nondeterministic));
  EXPECT_TRUE(o.nondeterministic());
  EXPECT_TRUE(o.failed_with(FailureKind::nondeterministic));
  EXPECT_FALSE(o.failed_with(FailureKind::mismatch));
  EXPECT_TRUE(o.fails_run());
  EXPECT_EQ(junit_of(back), JUnit::failed);
  row.set("verdict", "fail:mismatch");
  EXPECT_FALSE(row.outcome().nondeterministic());
  row.set("verdict", "pass");
  EXPECT_FALSE(row.outcome().nondeterministic());
}

// A row of a newer minor may hold words this reader does not know (it does not check them): they
// read as no value, and the reports neither fail nor pass the row on them.
TEST(RowOutcome, WordsOfANewerMinorReadAsNoValue) {
  CsvRow row = testing::valid_row();
  row.set("schema", "1.9");
  row.set("verdict", "flaky");
  row.set("observed", "throttled:power");
  row.set("predicted", "refuse:grid.w");
  row.set("index_wrap", "wrap2:x");
  const CsvRow back = read_back(row);
  const RowOutcome& o = back.outcome();
  EXPECT_FALSE(o.verdict || o.observed || o.predicted || o.index_wrap);
  EXPECT_FALSE(o.fails_run());
  EXPECT_EQ(junit_of(back), JUnit::passed);
  EXPECT_EQ(observed_fails(back), true);  // not known to be accepted
  EXPECT_TRUE(predicted_fails(back));     // not known to be accepted
}

}  // namespace
}  // namespace gridfuzz::reports
