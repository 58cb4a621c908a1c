// `gridfuzz report`, `gridfuzz diff` and `gridfuzz sweep --shard` as the nightly job runs them:
// exit codes, files written, messages.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <set>

#include "../../support/run_gridfuzz.hpp"
#include "crafted_rows.hpp"
#include "gridfuzz/reports/csv_reader.hpp"
#include "gridfuzz/reports/schema.hpp"

namespace gridfuzz::reports {
namespace {

using testing::moe_vec_legacy_row;
using testing::TempDir;

using Result = gridfuzz::testing::CommandResult;
Result run(const std::string& args) { return gridfuzz::testing::run_gridfuzz(args); }

std::string q(const std::filesystem::path& p) {
  std::string quoted = "'";
  quoted += p.string();
  quoted += '\'';
  return quoted;
}

std::vector<CsvRow> legacy_run() {
  std::vector<CsvRow> rows;
  for (std::int64_t t = 8190; t <= 8194; ++t) rows.push_back(moe_vec_legacy_row(t));
  return rows;
}

// A header of every column but `missing`, and one row of the right width.
std::string csv_without_column(const std::string& missing) {
  std::string header, row;
  for (const auto& c : kColumns) {
    if (c.name == missing) continue;
    if (!header.empty()) header += ',';
    header += c.name;
    row += row.empty() ? "1.0" : ",";
  }
  return header + "\n" + row + "\n";
}

TEST(CliReport, WritesMarkdownJunitAndExits0) {
  TempDir dir;
  testing::write_csv(dir / "run.csv", legacy_run());
  const auto r = run("report " + q(dir / "run.csv") + " --out " + q(dir / "out"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("# gridfuzz report"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("grid.z 65536 > 65535"), std::string::npos) << r.output;
  EXPECT_TRUE(std::filesystem::exists(dir / "out/report.md"));
  const std::string junit = testing::read_text(dir / "out/junit.xml");
  EXPECT_NE(junit.find("<testsuites"), std::string::npos);
  EXPECT_EQ(testing::read_text(dir / "out/report.md").find("# gridfuzz report"), 0u);
}

TEST(CliReport, MergesShardsGivenTogether) {
  TempDir dir;
  auto rows = legacy_run();
  testing::write_csv(dir / "s1.csv", {rows[0], rows[2], rows[4]});
  testing::write_csv(dir / "s2.csv", {rows[1], rows[3]});
  const auto r = run("report " + q(dir / "s1.csv") + " " + q(dir / "s2.csv"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("- rows: 5"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("| 8191 | **8192** |"), std::string::npos) << r.output;
}

TEST(CliReport, UnreadableCsvIsExit2) {
  TempDir dir;
  testing::write_text(dir / "corrupt.csv", "schema,run_id\n1.0,\"never closed\n");
  auto r = run("report " + q(dir / "corrupt.csv"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("corrupt.csv"), std::string::npos) << r.output;
  r = run("report " + q(dir / "absent.csv"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
}

TEST(CliReport, DeviceSlugs) {
  TempDir dir;
  testing::write_csv(dir / "run.csv", legacy_run());
  const auto r = run("report --device-slugs " + q(dir / "run.csv"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "nvidia-h200\n");
}

TEST(CliDiff, SameRunIsExit0) {
  TempDir dir;
  testing::write_csv(dir / "base.csv", legacy_run());
  const auto r = run("diff " + q(dir / "base.csv") + " " + q(dir / "base.csv"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("gate: passed"), std::string::npos) << r.output;
}

// Two runs of one sweep (one GPU, several) must agree case by case; the gate alone lets a
// verdict change that is not a new failure pass, --same-verdicts does not.
TEST(CliDiff, SameVerdictsFailsOnAnyVerdictOrCaseDifference) {
  TempDir dir;
  auto base = legacy_run(), slower = legacy_run();
  testing::set_timing(slower[0], 2.0, 1.9, 2.1);  // timings aside
  testing::write_csv(dir / "base.csv", base);
  testing::write_csv(dir / "slower.csv", slower);
  auto r = run("diff --same-verdicts --min-delta-ms 100 " + q(dir / "base.csv") + " " + q(dir / "slower.csv"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("same verdicts: yes, " + std::to_string(base.size()) + " case(s)"), std::string::npos)
      << r.output;

  auto skipped = legacy_run();
  skipped[0].set("observed", "skipped:over the memory budget");
  skipped[0].set("oracle", "-");
  skipped[0].set("verdict", "skipped");
  testing::write_csv(dir / "skipped.csv", skipped);
  const std::string files = q(dir / "base.csv") + " " + q(dir / "skipped.csv");
  EXPECT_EQ(run("diff " + files).exit_code, 0) << "the gate lets a pass -> skipped through";
  r = run("diff --same-verdicts " + files);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("same verdicts: NO"), std::string::npos) << r.output;

  auto fewer = legacy_run();
  fewer.pop_back();
  testing::write_csv(dir / "fewer.csv", fewer);
  r = run("diff --same-verdicts " + q(dir / "base.csv") + " " + q(dir / "fewer.csv"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("1 removed"), std::string::npos) << r.output;
}

TEST(CliDiff, MovedBoundaryIsExit1WithTheList) {
  TempDir dir;
  testing::write_csv(dir / "base.csv", legacy_run());
  auto moved = legacy_run();
  moved[2].set("observed", "accept");
  moved[2].set("oracle", "exact");
  moved[2].set("verdict", "model-mismatch");
  testing::write_csv(dir / "now.csv", moved);
  const auto r = run("diff " + q(dir / "base.csv") + " " + q(dir / "now.csv"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("Moved boundaries (1)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("New model mismatches (1)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(moved[2].get("replay")), std::string::npos) << r.output;
}

TEST(CliDiff, SlowDownAndThresholdOption) {
  TempDir dir;
  auto base = legacy_run(), now = legacy_run();
  testing::set_timing(base[0], 1.0, 0.98, 1.02);
  testing::set_timing(now[0], 1.2, 1.18, 1.22);
  testing::write_csv(dir / "base.csv", base);
  testing::write_csv(dir / "now.csv", now);
  const std::string files = q(dir / "base.csv") + " " + q(dir / "now.csv");
  auto r = run("diff " + files);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("SLOWER"), std::string::npos) << r.output;
  EXPECT_EQ(run("diff " + files + " --threshold 25%").exit_code, 0);
  EXPECT_EQ(run("diff " + files + " --threshold 0.25").exit_code, 0);
  r = run("diff " + files + " --threshold 25");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("ambiguous"), std::string::npos) << r.output;
  EXPECT_EQ(run("diff " + files + " --threshold ten").exit_code, 2);
}

TEST(CliDiff, IncomparableCsvsAreExit2) {
  TempDir dir;
  testing::write_csv(dir / "good.csv", legacy_run());
  const std::string good = q(dir / "good.csv");

  testing::write_text(dir / "missing-column.csv", csv_without_column("verdict"));
  auto r = run("diff " + good + " " + q(dir / "missing-column.csv"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("verdict"), std::string::npos) << r.output;

  testing::write_text(dir / "corrupt.csv", "schema,run_id,case_id\n1.0,a\n");
  r = run("diff " + q(dir / "corrupt.csv") + " " + good);
  EXPECT_EQ(r.exit_code, 2) << r.output;

  // An old major version: the same columns, rows of schema 0.9.
  std::string old = testing::read_text(dir / "good.csv");
  const std::string ours = "\n" + std::string(gridfuzz::reports::kSchemaVersion) + ",";
  for (std::size_t at = old.find(ours); at != std::string::npos; at = old.find(ours, at + 1))
    old.replace(at + 1, ours.size() - 2, "0.9");
  testing::write_text(dir / "old.csv", old);
  r = run("diff " + q(dir / "old.csv") + " " + good);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("0.9"), std::string::npos) << r.output;

  r = run("diff " + good + " " + q(dir / "absent.csv"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_EQ(run("diff " + good).exit_code, 2) << "CURRENT is required";
}

TEST(CliSweepShard, ShardsSplitTheSweepWithoutOverlap) {
  TempDir dir;
  const std::string common = " --cases 1 --device-preset sm_90";
  const auto whole = run("sweep --csv " + q(dir / "all.csv") + common);
  ASSERT_TRUE(whole.exit_code == 0 || whole.exit_code == 1) << whole.output;
  std::set<std::string> all, seen;
  for (const auto& row : read_rows(dir / "all.csv")) all.insert(row.get("case_id"));
  std::size_t total = 0;
  for (int i = 1; i <= 3; ++i) {
    const auto csv = dir / ("shard" + std::to_string(i) + ".csv");
    const auto r = run("sweep --shard " + std::to_string(i) + "/3 --csv " + q(csv) + common);
    ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.output;
    EXPECT_NE(r.output.find("shard " + std::to_string(i) + "/3"), std::string::npos) << r.output;
    const auto rows = read_rows(csv);
    EXPECT_FALSE(rows.empty());
    for (const auto& row : rows) {
      EXPECT_TRUE(seen.insert(row.get("case_id")).second) << "in two shards: " << row.get("replay");
      ++total;
    }
  }
  EXPECT_EQ(seen, all);
  EXPECT_EQ(total, all.size());
  // The report merges the three shards into the whole run.
  const auto r = run("report " + q(dir / "shard1.csv") + " " + q(dir / "shard2.csv") + " " + q(dir / "shard3.csv"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("- rows: " + std::to_string(all.size()) + " "), std::string::npos);
}

TEST(CliSweepShard, BadShardIsExit2) {
  for (const char* shard : {"0/3", "4/3", "1/0", "x/3", "3"}) {
    const auto r = run(std::string("sweep --shard ") + shard + " --cases 0 --device-preset sm_90 --csv /dev/null");
    EXPECT_EQ(r.exit_code, 2) << shard << "\n" << r.output;
    EXPECT_NE(r.output.find("--shard"), std::string::npos) << r.output;
  }
}

}  // namespace
}  // namespace gridfuzz::reports
