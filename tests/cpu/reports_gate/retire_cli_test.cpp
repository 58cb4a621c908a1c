// `gridfuzz baseline retire` through the binary: the baseline keeps the rows of the cases the
// static plan holds, the others go, the reason is recorded; a run given as the plan, or a plan
// that holds none of the baseline's cases, is refused with nothing written (docs/REPORTS.md,
// "Retiring cases the plan left").
#include <gtest/gtest.h>

#include <set>

#include "../../support/run_gridfuzz.hpp"
#include "crafted_rows.hpp"
#include "gridfuzz/reports/csv_reader.hpp"

namespace gridfuzz::reports {
namespace {

using testing::moe_vec_legacy_row;
using testing::read_text;
using testing::TempDir;
using testing::write_csv;

std::string q(const std::filesystem::path& p) { return "'" + p.string() + "'"; }

// moe_vec legacy rows, tokens from..to: run on the H200 (a baseline's) or static (a plan's).
std::vector<CsvRow> rows(std::int64_t from, std::int64_t to, bool on_device) {
  std::vector<CsvRow> out;
  for (std::int64_t t = from; t <= to; ++t) {
    out.push_back(moe_vec_legacy_row(t, on_device));
    out.back().set("commit", "0123456789ab");
  }
  return out;
}

std::set<std::string> case_ids(const std::filesystem::path& csv) {
  std::set<std::string> out;
  for (const CsvRow& row : read_rows(csv)) out.insert(row.get("case_id"));
  return out;
}

std::string retire(const TempDir& dir, const std::string& more = "") {
  return "baseline retire " + q(dir / "base.csv") + " --plan " + q(dir / "plan.csv") +
         " --reason 'the planner leaves repeated crossings out' " + more;
}

TEST(CliRetire, KeepsThePlannedCasesDropsTheOthersAndRecordsWhy) {
  TempDir dir;
  write_csv(dir / "base.csv", rows(8188, 8193, true));
  write_csv(dir / "plan.csv", rows(8190, 8195, false));  // 8188 and 8189 no longer planned; 8194-5 not run yet
  const auto r = gridfuzz::testing::run_gridfuzz(retire(dir));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("kept: 4\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("retired: 2\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("gguf.moe_vec legacy: 2\n"), std::string::npos) << r.output;
  std::set<std::string> want;
  for (const CsvRow& row : rows(8190, 8193, true)) want.insert(row.get("case_id"));
  EXPECT_EQ(case_ids(dir / "base.csv"), want);
  const std::string ledger = read_text(dir / "base.accepts.md");
  EXPECT_NE(ledger.find("2 retired, 4 kept. the planner leaves repeated crossings out"), std::string::npos) << ledger;
  // The kept rows are the baseline's own (verdicts of the device, not the plan's `static`).
  for (const CsvRow& row : read_rows(dir / "base.csv")) EXPECT_NE(row.get("observed"), "static");
}

TEST(CliRetire, ADryRunWritesNothing) {
  TempDir dir;
  write_csv(dir / "base.csv", rows(8188, 8193, true));
  write_csv(dir / "plan.csv", rows(8190, 8193, false));
  const std::string before = read_text(dir / "base.csv");
  const auto r = gridfuzz::testing::run_gridfuzz(retire(dir, "--dry-run"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("dry run: would write"), std::string::npos) << r.output;
  EXPECT_EQ(read_text(dir / "base.csv"), before);
  EXPECT_FALSE(std::filesystem::exists(dir / "base.accepts.md"));
}

// A refusal: exit 2 with the reason, the baseline as it was, no ledger.
void expect_refused(const std::vector<CsvRow>& plan, const std::string& why) {
  TempDir dir;
  write_csv(dir / "base.csv", rows(8188, 8193, true));
  write_csv(dir / "plan.csv", plan);
  const std::string before = read_text(dir / "base.csv");
  const auto r = gridfuzz::testing::run_gridfuzz(retire(dir));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("refused: " + why), std::string::npos) << r.output;
  EXPECT_EQ(read_text(dir / "base.csv"), before);
  EXPECT_FALSE(std::filesystem::exists(dir / "base.accepts.md"));
}

TEST(CliRetire, RefusesARunGivenAsThePlan) { expect_refused(rows(8190, 8193, true), "PLAN is not a static plan"); }

TEST(CliRetire, RefusesAPlanThatHoldsNoneOfTheBaselinesCases) {
  expect_refused(rows(9000, 9003, false), "PLAN holds none of the baseline's 6 cases");
}

}  // namespace
}  // namespace gridfuzz::reports
