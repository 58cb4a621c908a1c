// `gridfuzz baseline accept` and `gridfuzz merge` through the binary: what each refuses (exit 2,
// nothing written), how accept merges a run into a baseline by case and records why, how merge
// joins one file per machine (docs/REPORTS.md, "Accepting a change", "Merging CSVs").
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <regex>

#include "../../support/run_gridfuzz.hpp"
#include "crafted_rows.hpp"
#include "gridfuzz/reports/csv_reader.hpp"
#include "gridfuzz/reports/schema.hpp"

namespace gridfuzz::reports {
namespace {

using testing::make_row;
using testing::moe_vec_legacy_row;
using testing::read_text;
using testing::TempDir;
using testing::write_csv;

using Result = gridfuzz::testing::CommandResult;
Result run(const std::string& args) { return gridfuzz::testing::run_gridfuzz(args); }

std::string q(const std::filesystem::path& p) { return "'" + p.string() + "'"; }

constexpr const char* kCommit = "0123456789ab";

// The legacy moe_vec cases tokens = from..to, of a clean build on the H200.
std::vector<CsvRow> moe_rows(std::int64_t from, std::int64_t to, const std::string& commit = kCommit) {
  std::vector<CsvRow> rows;
  for (std::int64_t t = from; t <= to; ++t) {
    rows.push_back(moe_vec_legacy_row(t));
    rows.back().set("commit", commit);
  }
  return rows;
}

CsvRow qmm_row(std::int64_t tokens) {
  CsvRow row = make_row("affine.qmm", "legacy", {{"tokens", std::to_string(tokens)}, {"vocab", "32000"}});
  row.set("commit", kCommit);
  return row;
}

// Every verdict of a CSV by case id.
std::map<std::string, std::string> verdicts(const std::filesystem::path& csv) {
  std::map<std::string, std::string> out;
  for (const CsvRow& row : read_rows(csv)) out[row.get("case_id")] = row.get("verdict");
  return out;
}

std::string accept(const std::filesystem::path& base, const std::filesystem::path& run_csv, const std::string& more = "") {
  return "baseline accept " + q(base) + " " + q(run_csv) + " --reason 'the fix of issue 7' " + more;
}

// A refusal: exit 2 with the reason, the baseline byte for byte as it was, no ledger.
void expect_refused(const TempDir& dir, const std::vector<CsvRow>& run_rows, const std::string& why,
                    const std::string& more = "") {
  write_csv(dir / "base.csv", moe_rows(8190, 8193));
  write_csv(dir / "run.csv", run_rows);
  const std::string before = read_text(dir / "base.csv");
  const auto r = run(accept(dir / "base.csv", dir / "run.csv", more));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("refused: " + why), std::string::npos) << r.output;
  EXPECT_EQ(read_text(dir / "base.csv"), before);
  EXPECT_FALSE(std::filesystem::exists(dir / "base.accepts.md"));
}

TEST(CliAccept, RefusesADirtyOrUnknownBuild) {
  TempDir dir;
  expect_refused(dir, moe_rows(8190, 8193, "0123456789ab+dirty"), "RUN was made by a modified or unknown build");
  expect_refused(dir, moe_rows(8190, 8193, "unknown"), "RUN was made by a modified or unknown build");
}

TEST(CliAccept, RefusesAStaticRun) {
  TempDir dir;
  std::vector<CsvRow> rows;
  for (std::int64_t t = 8190; t <= 8193; ++t) {
    rows.push_back(moe_vec_legacy_row(t, /*on_device=*/false));
    rows.back().set("commit", kCommit);
  }
  expect_refused(dir, rows, "RUN is static");
}

TEST(CliAccept, RefusesAnotherDevice) {
  TempDir dir;
  auto rows = moe_rows(8190, 8193);
  for (auto& row : rows) row.set("cc", "8.0");  // same name, another compute capability
  expect_refused(dir, rows, "RUN ran on NVIDIA H200 (cc 8.0)");
}

TEST(CliAccept, RefusesARunThatLacksCasesOfTheKernelsTaken) {
  TempDir dir;
  expect_refused(dir, moe_rows(8190, 8191), "RUN lacks 2 of the baseline's 4 case(s)");
  // --partial takes it and keeps the rows it did not reach.
  const auto r = run(accept(dir / "base.csv", dir / "run.csv", "--partial"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("kept: 2\n"), std::string::npos) << r.output;
  EXPECT_EQ(read_rows(dir / "base.csv").size(), 4u);
}

TEST(CliAccept, RefusesAMissingBaselineWithoutNewAndAnEmptyReason) {
  TempDir dir;
  write_csv(dir / "run.csv", moe_rows(8190, 8193));
  auto r = run(accept(dir / "absent.csv", dir / "run.csv"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--new"), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "absent.csv"));
  r = run(accept(dir / "first.csv", dir / "run.csv", "--new"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(read_rows(dir / "first.csv").size(), 4u);
  r = run("baseline accept " + q(dir / "first.csv") + " " + q(dir / "run.csv") + " --reason ' '");
  EXPECT_EQ(r.exit_code, 2) << r.output;
}

// A kept row, a replaced row of the same verdict, one of another verdict, a new row; the counts,
// the verdict change with its replay string, and the ledger line with the reason.
TEST(CliAccept, MergesByCaseAndRecordsWhy) {
  TempDir dir;
  auto base = moe_rows(8190, 8192);
  write_csv(dir / "base.csv", base);
  auto run_rows = moe_rows(8191, 8193);  // 8190 kept, 8191 same, 8192 another verdict, 8193 new
  run_rows[1].set("observed", "accept");
  run_rows[1].set("oracle", "mismatch");
  run_rows[1].set("verdict", "fail:mismatch");
  write_csv(dir / "run.csv", run_rows);
  const auto r = run(accept(dir / "base.csv", dir / "run.csv", "--partial"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("replaced, another verdict: 1\nreplaced, same verdict: 1\nnew: 1\nkept: 1\n"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("gguf.moe_vec legacy " + base[2].get("case_id") + ": expected-fail -> fail:mismatch  " +
                          base[2].get("replay")),
            std::string::npos)
      << r.output;

  const auto merged = read_rows(dir / "base.csv");
  ASSERT_EQ(merged.size(), 4u);
  EXPECT_EQ(merged[0].get("case_id"), base[0].get("case_id"));  // the baseline's order, the new row last
  EXPECT_EQ(merged[3].get("case_id"), run_rows[2].get("case_id"));
  const auto v = verdicts(dir / "base.csv");
  EXPECT_EQ(v.at(base[2].get("case_id")), "fail:mismatch");
  for (const auto& row : merged) EXPECT_EQ(row.get("schema"), kSchemaVersion);

  const std::string ledger = read_text(dir / "base.accepts.md");
  EXPECT_TRUE(ledger.starts_with("# Accepted changes to this baseline\n")) << ledger;
  EXPECT_TRUE(std::regex_search(ledger, std::regex("\n- \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ, run `0123456789ab`, "
                                                   "--partial: 1 replaced with another verdict, 1 with the same, 1 new, "
                                                   "1 kept\\. the fix of issue 7\n$")))
      << ledger;
  // A second accept adds a line.
  ASSERT_EQ(run(accept(dir / "base.csv", dir / "run.csv", "--partial")).exit_code, 0);
  const std::string twice = read_text(dir / "base.accepts.md");
  EXPECT_TRUE(twice.starts_with(ledger));
  EXPECT_EQ(std::count(twice.begin(), twice.end(), '\n'), std::count(ledger.begin(), ledger.end(), '\n') + 1);
}

// --only takes the selected kernels' rows; coverage is of those kernels only.
TEST(CliAccept, OnlyTakesTheSelectedKernels) {
  TempDir dir;
  auto base = moe_rows(8190, 8191);
  base.push_back(qmm_row(16));
  write_csv(dir / "base.csv", base);
  auto run_rows = moe_rows(8190, 8191);
  for (auto& row : run_rows) {
    row.set("observed", "fault:CUDA_ERROR_ILLEGAL_ADDRESS");
    row.set("verdict", "fail:fault");
  }
  CsvRow qmm = qmm_row(16);
  qmm.set("verdict", "skipped");
  run_rows.push_back(qmm);
  write_csv(dir / "run.csv", run_rows);
  // 'affine.*' takes the qmm row alone: the moe_vec rows are kept.
  auto r = run(accept(dir / "base.csv", dir / "run.csv", "--only 'affine.*' --dry-run"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("replaced, another verdict: 1\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("kept: 2\n"), std::string::npos) << r.output;
  EXPECT_EQ(verdicts(dir / "base.csv").at(qmm.get("case_id")), "pass") << "--dry-run writes nothing";
  EXPECT_FALSE(std::filesystem::exists(dir / "base.accepts.md"));
  r = run(accept(dir / "base.csv", dir / "run.csv", "--only gguf.moe_vec/legacy"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const auto v = verdicts(dir / "base.csv");
  EXPECT_EQ(v.at(base[0].get("case_id")), "fail:fault");
  EXPECT_EQ(v.at(qmm.get("case_id")), "pass");
  EXPECT_NE(read_text(dir / "base.accepts.md").find("--only `gguf.moe_vec/legacy`"), std::string::npos);
  // A pattern that selects nothing.
  r = run(accept(dir / "base.csv", dir / "run.csv", "--only 'mlx.*'"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--only selects none"), std::string::npos) << r.output;
}

TEST(CliAccept, CapsTheListOfVerdictChanges) {
  TempDir dir;
  write_csv(dir / "base.csv", moe_rows(8190, 8193));
  auto run_rows = moe_rows(8190, 8193);
  for (auto& row : run_rows) row.set("verdict", "skipped");
  write_csv(dir / "run.csv", run_rows);
  const auto r = run(accept(dir / "base.csv", dir / "run.csv", "--max-listed 1 --dry-run"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("  and 3 more\n"), std::string::npos) << r.output;
}

// An older minor's baseline is written back in this schema; --out leaves BASELINE as it was.
TEST(CliAccept, RewritesTheH200BaselineInTheCurrentSchema) {
  TempDir dir;
  const std::filesystem::path h200 = std::filesystem::path(GRIDFUZZ_SOURCE_DIR) / "baselines/nvidia-h200.csv";
  std::vector<CsvRow> run_rows = read_rows(h200);
  run_rows.resize(3);
  for (auto& row : run_rows) row.set("commit", kCommit);
  write_csv(dir / "run.csv", run_rows);
  const std::string before = read_text(h200);
  const auto r = run(accept(h200, dir / "run.csv", "--partial --out " + q(dir / "new.csv")));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(read_text(h200), before);
  const auto old_rows = read_rows(h200), new_rows = read_rows(dir / "new.csv");
  ASSERT_EQ(new_rows.size(), old_rows.size());
  EXPECT_EQ(new_rows.back().get("schema"), kSchemaVersion);
  EXPECT_EQ(new_rows.back().get("replay"), old_rows.back().get("replay"));
  EXPECT_TRUE(std::filesystem::exists(dir / "new.accepts.md"));
  // The run is never the output.
  EXPECT_EQ(run(accept(h200, dir / "run.csv", "--partial --out " + q(dir / "run.csv"))).exit_code, 2);
}

TEST(CliMerge, MergesTwoDevicesFiles) {
  TempDir dir;
  auto a100 = moe_rows(8190, 8191);
  for (auto& row : a100) {
    row.set("device", "NVIDIA A100-SXM4-80GB");
    row.set("cc", "8.0");
  }
  write_csv(dir / "h200.csv", moe_rows(8190, 8191));
  write_csv(dir / "a100.csv", a100);
  const auto r = run("merge " + q(dir / "all.csv") + " " + q(dir / "h200.csv") + " " + q(dir / "a100.csv"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto rows = read_rows(dir / "all.csv");
  ASSERT_EQ(rows.size(), 4u);  // the same case ids, on two devices
  EXPECT_EQ(rows[0].get("device"), "NVIDIA H200");
  EXPECT_EQ(rows[3].get("device"), "NVIDIA A100-SXM4-80GB");
  const auto slugs = run("report --device-slugs " + q(dir / "all.csv"));
  EXPECT_EQ(slugs.output, "nvidia-a100-sxm4-80gb\nnvidia-h200\n");
}

TEST(CliMerge, ACaseTwiceIsRefusedUnlessLastWins) {
  TempDir dir;
  write_csv(dir / "one.csv", moe_rows(8190, 8191));
  auto again = moe_rows(8191, 8192);
  again[0].set("verdict", "skipped");
  write_csv(dir / "two.csv", again);
  const std::string inputs = " " + q(dir / "one.csv") + " " + q(dir / "two.csv");
  auto r = run("merge " + q(dir / "all.csv") + inputs);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--last-wins"), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "all.csv"));
  r = run("merge --last-wins " + q(dir / "all.csv") + inputs);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(read_rows(dir / "all.csv").size(), 3u);
  EXPECT_EQ(verdicts(dir / "all.csv").at(again[0].get("case_id")), "skipped");
  // An output that is one of the inputs is refused, the input left as it was.
  const std::string one = read_text(dir / "one.csv");
  EXPECT_EQ(run("merge --last-wins " + q(dir / "one.csv") + inputs).exit_code, 2);
  EXPECT_EQ(read_text(dir / "one.csv"), one);
}

}  // namespace
}  // namespace gridfuzz::reports
