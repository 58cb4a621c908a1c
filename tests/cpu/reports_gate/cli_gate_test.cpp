// `gridfuzz report`, `gridfuzz diff` and `gridfuzz sweep --shard` as the nightly job runs them:
// exit codes, files written, messages.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <set>
#include <sstream>

#include "../../support/run_gridfuzz.hpp"
#include "../core/split_output.hpp"
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

TEST(CliReport, TheH200BaselineGetsOneSummaryPerKernelAndItsTwoAxisTables) {
  TempDir dir;
  const std::filesystem::path csv = std::filesystem::path(GRIDFUZZ_SOURCE_DIR) / "baselines/nvidia-h200.csv";
  const auto r = run("report " + q(csv) + " --out " + q(dir / "out") + " --gnuplot /nonexistent/gnuplot");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("## Boundaries in two axes"), std::string::npos);
  EXPECT_NE(r.output.find("0 of "), std::string::npos) << "the closing line counts the plots drawn";
  std::set<std::string> kernels;
  for (const CsvRow& row : read_rows(csv)) kernels.insert(row.get("kernel"));
  for (const std::string& kernel : kernels)
    EXPECT_TRUE(std::filesystem::exists(dir / ("out/plots/" + kernel + "-nvidia-h200-summary.gp"))) << kernel;
}

// The nightly finds a GPU's baseline by the slug of its rows' device (scripts/nightly, `report
// --device-slugs`): every committed baseline must be named so, hold one device, no build of a
// modified tree, and pass the gate against itself (the strict reader, the ledger, every coverage rule).
TEST(CliReport, EveryCommittedBaselineIsNamedByItsDeviceAndPassesItsOwnGate) {
  const std::filesystem::path dir = std::filesystem::path(GRIDFUZZ_SOURCE_DIR) / "baselines";
  std::size_t baselines = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::filesystem::path csv = entry.path();
    if (csv.extension() != ".csv") continue;
    ++baselines;
    std::string stem = csv.stem().string();
    if (stem.ends_with("-speed")) stem.resize(stem.size() - 6);
    const auto slugs = run("report --device-slugs " + q(csv));
    EXPECT_EQ(slugs.exit_code, 0) << csv << slugs.output;
    EXPECT_EQ(slugs.output, stem + "\n") << csv;
    for (const CsvRow& row : read_rows(csv))
      ASSERT_FALSE(row.get("commit").ends_with("+dirty")) << csv << ": " << row.get("case_id");
    const auto gate = run("diff " + q(csv) + " " + q(csv) + " --min-coverage 100");
    EXPECT_EQ(gate.exit_code, 0) << csv << gate.output;
    EXPECT_NE(gate.output.find("gate: passed"), std::string::npos) << csv << gate.output;
  }
  EXPECT_GE(baselines, 3u) << "the H200's, its speed tier's and the H100's";
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

// Issue 29 on the command line: a run that lacks the baseline's boundary case passes the gate (the
// boundary was not reached), a boundary only a race the ledger names moves passes it, and a real
// move still fails it.
TEST(CliDiff, BoundariesAreComparedWhereBothRunsHoldCasesAndANamedRaceIsNoMove) {
  TempDir dir;
  testing::write_csv(dir / "base.csv", legacy_run());  // 8190..8194, first fail 8192
  std::vector<CsvRow> short_run;
  for (const CsvRow& row : legacy_run())
    if (row.get("tokens") != "8192") short_run.push_back(row);
  testing::write_csv(dir / "short.csv", short_run);
  auto r = run("diff " + q(dir / "base.csv") + " " + q(dir / "short.csv"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("observed first fail 8192 -> 8193 (not in the current run: 8192)"), std::string::npos)
      << r.output;
  for (CsvRow& row : short_run)
    if (row.get("tokens") == "8193") {  // passes now, which the baseline judged: a move
      row.set("observed", "accept");
      row.set("oracle", "exact");
      row.set("verdict", "pass");  // no new failure: the moved boundary alone fails the gate
    }
  testing::write_csv(dir / "moved.csv", short_run);
  r = run("diff --json " + q(dir / "base.csv") + " " + q(dir / "moved.csv"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("\"moved_boundaries\":[{\"what\":\"observed first fail 8192 -> 8194\""), std::string::npos)
      << r.output;

  // MLX's epilogue race, named by the ledger: a case that raced in one run only.
  testing::write_text(dir / "ledger.txt",
                      "mlx.qmm upstream fail:nondeterministic mlx.md#finding-6 qmm_sm80.cuh:249-271 if cols / 64 % 3 != 1\n");
  testing::write_text(dir / "no-race-ledger.txt", "mlx.qmm upstream refused\n");
  std::vector<CsvRow> clean;
  for (std::int64_t t = 64; t <= 68; ++t)
    clean.push_back(testing::make_row("mlx.qmm", "upstream",
                                      {{"tokens", std::to_string(t)}, {"cols", "2816"}, {"vocab", "4096"}}));
  auto raced = clean;
  raced[2].set("oracle", "split:exact:24 unwritten:0 cpu:250/256 self:differ:24");
  raced[2].set("verdict", "expected-fail");
  raced[2].set("finding", "mlx.md#finding-6");
  testing::write_csv(dir / "clean.csv", clean);
  testing::write_csv(dir / "raced.csv", raced);
  const std::string files = q(dir / "clean.csv") + " " + q(dir / "raced.csv");
  r = run("diff " + files + " --ledger " + q(dir / "ledger.txt"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("observed first fail none -> 66 (a race: mlx.md#finding-6)"), std::string::npos) << r.output;
  r = run("diff " + files + " --ledger " + q(dir / "no-race-ledger.txt"));
  EXPECT_EQ(r.exit_code, 1) << "the ledger names no race: the same rows move the boundary\n" << r.output;
  EXPECT_NE(r.output.find("Moved boundaries (1)"), std::string::npos) << r.output;
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
  // Replayed as printed, the slow-down shows its times.
  EXPECT_NE(r.output.find("gridfuzz replay --timing '" + base[0].get("replay") + "'"), std::string::npos) << r.output;
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

// No GPU, no green: a gate over runs that share no case, or of different devices, compares
// nothing; it must not pass (a static run or a broken runner against a baseline would).
TEST(CliDiff, NoCaseInCommonIsExit2AndNeverPassed) {
  TempDir dir;
  testing::write_csv(dir / "base.csv", legacy_run());
  testing::write_csv(dir / "other.csv",
                     {testing::make_row("gguf.moe_vec", "fixed", {{"tokens", "64"}, {"top_k", "8"}})});
  const auto r = run("diff " + q(dir / "base.csv") + " " + q(dir / "other.csv"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("no case matched"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("gate: NOT RUN"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("gate: passed"), std::string::npos) << r.output;
  // Two empty runs (a header only) match nothing either.
  testing::write_csv(dir / "empty.csv", {});
  EXPECT_EQ(run("diff " + q(dir / "empty.csv") + " " + q(dir / "empty.csv")).exit_code, 2);
  // --same-verdicts does not turn it into "same verdicts: yes".
  const auto same = run("diff --same-verdicts " + q(dir / "base.csv") + " " + q(dir / "other.csv"));
  EXPECT_EQ(same.exit_code, 2) << same.output;
  EXPECT_EQ(same.output.find("same verdicts: yes"), std::string::npos) << same.output;
}

TEST(CliDiff, DifferentDevicesAreExit2) {
  TempDir dir;
  testing::write_csv(dir / "base.csv", legacy_run());
  // The same cases judged statically against the sm_90 preset: what a runner without a GPU writes.
  const auto sweep = run("run gguf.moe_vec --variant legacy --set tokens=8190:8194 --set top_k=8 --set rows=1408 "
                         "--set cols=2816 --set quant=q4_0 --static --device-preset sm_90 --csv " +
                         q(dir / "static.csv"));
  ASSERT_EQ(sweep.exit_code, 0) << sweep.output;
  auto r = run("diff " + q(dir / "base.csv") + " " + q(dir / "static.csv"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("different devices"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("NVIDIA H200 (cc 9.0)"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("gate: passed"), std::string::npos) << r.output;
  // The same device name with another compute capability is another device too.
  auto other_cc = legacy_run();
  for (auto& row : other_cc) row.set("cc", "8.0");
  testing::write_csv(dir / "cc80.csv", other_cc);
  r = run("diff " + q(dir / "base.csv") + " " + q(dir / "cc80.csv"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_EQ(r.output.find("gate: passed"), std::string::npos) << r.output;
}

TEST(CliDiff, JsonHasTheGateAndItsFindings) {
  TempDir dir;
  testing::write_csv(dir / "base.csv", legacy_run());
  auto moved = legacy_run();
  moved[2].set("observed", "accept");
  moved[2].set("oracle", "exact");
  moved[2].set("verdict", "model-mismatch");
  testing::write_csv(dir / "now.csv", moved);
  testing::write_csv(dir / "other.csv",
                     {testing::make_row("gguf.moe_vec", "fixed", {{"tokens", "64"}, {"top_k", "8"}})});
  const auto failed = gridfuzz::testing::run_gridfuzz_split("diff --json " + q(dir / "base.csv") + " " + q(dir / "now.csv"));
  EXPECT_EQ(failed.exit_code, 1) << failed.err;
  const auto passed = gridfuzz::testing::run_gridfuzz_split("diff --json " + q(dir / "base.csv") + " " + q(dir / "base.csv"));
  EXPECT_EQ(passed.exit_code, 0) << passed.err;
  const auto not_run = gridfuzz::testing::run_gridfuzz_split("diff --json " + q(dir / "base.csv") + " " + q(dir / "other.csv"));
  EXPECT_EQ(not_run.exit_code, 2) << not_run.err;
  const auto check_failed = gridfuzz::testing::jq_check(
      R"jq(.gate == "failed" and .exit_code == 1 and .matched_cases == 5 and (.moved_boundaries | length) == 1 and
         .moved_boundaries[0].after.axis == "tokens" and (.new_model_mismatches | length) == 1 and
         (.new_model_mismatches[0].replay | startswith("gguf.moe_vec/legacy/")) and .baseline.devices == ["NVIDIA H200 (cc 9.0)"])jq");
  const auto check_passed = gridfuzz::testing::jq_check(R"jq(.gate == "passed" and .exit_code == 0 and (.slower | length) == 0)jq");
  const auto check_not_run =
      gridfuzz::testing::jq_check(R"jq(.gate == "not-run" and .exit_code == 2 and (.reason | contains("no case matched")))jq");
  if (!check_failed) GTEST_SKIP() << "jq is not installed (Debian jq; scripts/lib.sh installs it): no JSON parser to check with";
  EXPECT_EQ(gridfuzz::testing::pipe_text_into(failed.out, *check_failed), 0) << failed.out;
  EXPECT_EQ(gridfuzz::testing::pipe_text_into(passed.out, *check_passed), 0) << passed.out;
  EXPECT_EQ(gridfuzz::testing::pipe_text_into(not_run.out, *check_not_run), 0) << not_run.out;
}

// The gate's findings as JUnit, read back with xmllint (libxml2, a parser we did not write).
TEST(CliDiff, JunitHasOneFailingTestcasePerFindingWithStableNames) {
  if (!gridfuzz::testing::have_program("xmllint"))
    GTEST_SKIP() << "xmllint is not installed (Debian libxml2-utils; scripts/lib.sh installs it)";
  TempDir dir;
  auto base = legacy_run(), now = legacy_run();
  now[2].set("observed", "accept");
  now[2].set("oracle", "exact");
  now[2].set("verdict", "model-mismatch");
  testing::set_timing(base[0], 1.0, 0.98, 1.02);
  testing::set_timing(now[0], 1.2, 1.18, 1.22);
  testing::write_csv(dir / "base.csv", base);
  testing::write_csv(dir / "now.csv", now);
  const auto xpath = [&](const std::filesystem::path& file, const std::string& expr) {
    std::string out = gridfuzz::testing::run_split("xmllint --xpath " + gridfuzz::testing::shell_quote(expr) + " " + q(file)).out;
    if (!out.empty() && out.back() == '\n') out.pop_back();  // libxml2 versions differ
    return out;
  };
  for (const char* name : {"gate1.xml", "gate2.xml"}) {
    const auto r = run("diff --junit " + q(dir / name) + " " + q(dir / "base.csv") + " " + q(dir / "now.csv"));
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_EQ(gridfuzz::testing::run_split("xmllint --noout " + q(dir / name)).exit_code, 0);
  }
  // A new model mismatch, a moved boundary, a slow-down: three failing testcases.
  EXPECT_EQ(xpath(dir / "gate1.xml", "count(//testcase)"), "3");
  EXPECT_EQ(xpath(dir / "gate1.xml", "count(//testcase/failure)"), "3");
  EXPECT_EQ(xpath(dir / "gate1.xml", "string(/testsuites/@failures)"), "3");
  EXPECT_EQ(xpath(dir / "gate1.xml", "count(//testcase[@classname='gate.moved-boundary'])"), "1");
  EXPECT_EQ(xpath(dir / "gate1.xml", "count(//testcase[@classname='gate.new-model-mismatch'])"), "1");
  EXPECT_EQ(xpath(dir / "gate1.xml", "count(//testcase[@classname='gate.slower'])"), "1");
  EXPECT_EQ(xpath(dir / "gate1.xml", "string(//testcase[@classname='gate.slower']/@name)"),
            base[0].get("replay") + " on NVIDIA H200");
  EXPECT_NE(xpath(dir / "gate1.xml", "string(//testcase[@classname='gate.slower']/failure/@message)")
                .find("gridfuzz replay --timing '" + base[0].get("replay") + "'"),
            std::string::npos)
      << "replayed as printed, the slow-down shows its times";
  // Stable: the same findings give the same file.
  EXPECT_EQ(testing::read_text(dir / "gate1.xml"), testing::read_text(dir / "gate2.xml"));

  // A passing gate: one passing testcase.
  EXPECT_EQ(run("diff --junit " + q(dir / "pass.xml") + " " + q(dir / "base.csv") + " " + q(dir / "base.csv")).exit_code, 0);
  EXPECT_EQ(gridfuzz::testing::run_split("xmllint --noout " + q(dir / "pass.xml")).exit_code, 0);
  EXPECT_EQ(xpath(dir / "pass.xml", "count(//testcase)"), "1");
  EXPECT_EQ(xpath(dir / "pass.xml", "count(//failure) + count(//error)"), "0");
  // Runs that cannot be compared: one testcase with the reason as an error.
  testing::write_csv(dir / "other.csv", {testing::make_row("gguf.moe_vec", "fixed", {{"tokens", "64"}})});
  EXPECT_EQ(run("diff --junit " + q(dir / "no.xml") + " " + q(dir / "base.csv") + " " + q(dir / "other.csv")).exit_code, 2);
  EXPECT_EQ(xpath(dir / "no.xml", "count(//testcase/error)"), "1");
}

// Coverage: the gate fails when the run vouches for too little of the baseline.

// `n` passing rows of `kernel variant` (tokens 1..n), for coverage tests.
std::vector<CsvRow> target_rows(const std::string& kernel, const std::string& variant, int n) {
  std::vector<CsvRow> rows;
  for (int t = 1; t <= n; ++t) rows.push_back(testing::make_row(kernel, variant, {{"tokens", std::to_string(t)}}));
  return rows;
}

std::vector<CsvRow> joined(std::vector<CsvRow> a, const std::vector<CsvRow>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(CliDiffCoverage, AKernelVariantWithNoMatchedCaseIsExit1AndNamed) {
  TempDir dir;
  const auto fixed = target_rows("gguf.moe_vec", "fixed", 2);
  testing::write_csv(dir / "base.csv", joined(legacy_run(), fixed));
  testing::write_csv(dir / "none.csv", legacy_run());
  testing::write_csv(dir / "one.csv", joined(legacy_run(), {fixed[0]}));
  const std::string base = q(dir / "base.csv");
  auto r = run("diff " + base + " " + q(dir / "none.csv"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(has(r.output, "gate: FAILED (1 problem(s))")) << r.output;
  EXPECT_TRUE(has(r.output, "Kernel x variants of the baseline with no matched case (1):\n"
                            "  gguf.moe_vec fixed  0 of 2 baseline case(s) matched"))
      << r.output;
  EXPECT_TRUE(has(r.output, "gguf.moe_vec legacy  5 / 5\n")) << "the table, matched / total per target\n" << r.output;
  // One matched case of the target is enough for this rule.
  r = run("diff " + base + " " + q(dir / "one.csv"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(has(r.output, "gguf.moe_vec fixed   1 / 2\n")) << r.output;
  // A shard (--partial) answers only for the targets it has rows of.
  r = run("diff --partial " + base + " " + q(dir / "none.csv"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(has(r.output, "not in this run (--partial)")) << r.output;
  testing::write_csv(dir / "other-case.csv",
                     joined(legacy_run(), {testing::make_row("gguf.moe_vec", "fixed", {{"tokens", "99"}})}));
  EXPECT_EQ(run("diff --partial " + base + " " + q(dir / "other-case.csv")).exit_code, 1)
      << "a target the shard ran without matching any baseline case still fails";
}

TEST(CliDiffCoverage, AMissingKernelFamilyIsExit1UnlessAllowed) {
  TempDir dir;
  const auto mlx = joined(target_rows("mlx.qmm", "upstream", 2), target_rows("mlx.gather_qmm", "chunked", 1));
  testing::write_csv(dir / "base.csv", joined(legacy_run(), mlx));
  testing::write_csv(dir / "now.csv", legacy_run());
  const std::string files = q(dir / "base.csv") + " " + q(dir / "now.csv");
  auto r = run("diff " + files);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(has(r.output, "gate: FAILED (1 problem(s))")) << "the family once, not each of its targets\n" << r.output;
  EXPECT_TRUE(has(r.output, "Kernel families of the baseline with no row in the run (missing from the build?) (1):\n"
                            "  mlx  3 baseline case(s) in 2 kernel x variant(s); --allow-missing mlx"))
      << r.output;
  EXPECT_FALSE(has(r.output, "no matched case")) << r.output;
  for (const char* allow : {"--allow-missing mlx", "--allow-missing vllm,mlx", "--allow-missing vllm --allow-missing mlx"}) {
    r = run("diff " + files + " " + allow);
    EXPECT_EQ(r.exit_code, 0) << allow << "\n" << r.output;
    EXPECT_TRUE(has(r.output, "family missing, allowed")) << r.output;
  }
  EXPECT_EQ(run("diff " + files + " --allow-missing gguf").exit_code, 1) << "another family allowed";
  // An allowed family is out of the coverage share too: 5 of 5, not 5 of 8.
  EXPECT_EQ(run("diff " + files + " --allow-missing mlx --min-coverage 100").exit_code, 0);
  for (const char* bad : {"mlx.qmm", "''"}) {
    r = run("diff " + files + " --allow-missing " + bad);
    EXPECT_EQ(r.exit_code, 2) << bad << "\n" << r.output;
    EXPECT_TRUE(has(r.output, "--allow-missing")) << r.output;
  }
  // A shard has no family missing: it runs some targets only.
  EXPECT_EQ(run("diff --partial " + files).exit_code, 0);
}

TEST(CliDiffCoverage, MinCoverageFailsUnderAndPassesAtTheShare) {
  TempDir dir;
  const auto fixed = target_rows("gguf.moe_vec", "fixed", 5);
  testing::write_csv(dir / "base.csv", joined(legacy_run(), fixed));
  testing::write_csv(dir / "now.csv", joined(legacy_run(), {fixed[0]}));  // 6 of 10
  const std::string files = q(dir / "base.csv") + " " + q(dir / "now.csv");
  auto r = run("diff " + files);
  EXPECT_EQ(r.exit_code, 0) << "the default is 0\n" << r.output;
  EXPECT_TRUE(has(r.output, "total 6 / 10 (60.0%; --min-coverage 0%)")) << r.output;
  EXPECT_EQ(run("diff " + files + " --min-coverage 60").exit_code, 0);
  EXPECT_EQ(run("diff " + files + " --min-coverage 60%").exit_code, 0);
  r = run("diff " + files + " --min-coverage 60.5");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(has(r.output, "Coverage under --min-coverage:\n  6 of 10 baseline case(s) matched (60.0%) < 60.5%"))
      << r.output;
  for (const char* bad : {"101", "-1", "ten", "", "0x10"}) {
    r = run("diff " + files + " --min-coverage '" + bad + "'");
    EXPECT_EQ(r.exit_code, 2) << bad << "\n" << r.output;
  }
}

// The issue's case on the real baseline: a run of part of it (no MLX, a fifth of the rest).
TEST(CliDiffCoverage, TheH200BaselineAgainstAPartOfItself) {
  TempDir dir;
  const std::filesystem::path baseline = std::filesystem::path(GRIDFUZZ_SOURCE_DIR) / "baselines/nvidia-h200.csv";
  std::vector<CsvRow> no_mlx, fifth;
  std::set<std::string> kv, mlx_targets;
  std::size_t mlx_rows = 0;
  for (const CsvRow& row : read_rows(baseline)) {
    if (row.get("kernel").starts_with("mlx.")) {
      ++mlx_rows;
      mlx_targets.insert(row.get("kernel") + " " + row.get("variant"));
      continue;
    }
    no_mlx.push_back(row);
    if (kv.insert(row.get("kernel") + " " + row.get("variant")).second) fifth.push_back(row);  // one per target
  }
  testing::write_csv(dir / "no-mlx.csv", no_mlx);
  testing::write_csv(dir / "fifth.csv", fifth);
  const std::string base = q(baseline);
  auto r = run("diff " + base + " " + q(dir / "no-mlx.csv"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  ASSERT_GT(mlx_rows, 0u) << "the H200 baseline holds MLX rows";
  EXPECT_TRUE(has(r.output, "\n  mlx  " + std::to_string(mlx_rows) + " baseline case(s) in " +
                                std::to_string(mlx_targets.size()) + " kernel x variant(s)"))
      << r.output;
  EXPECT_EQ(run("diff " + base + " " + q(dir / "no-mlx.csv") + " --allow-missing mlx --min-coverage 100").exit_code, 0);
  r = run("diff " + base + " " + q(dir / "fifth.csv") + " --allow-missing mlx --min-coverage 95");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(has(r.output, "Coverage under --min-coverage:\n  " + std::to_string(kv.size()) + " of " +
                                std::to_string(no_mlx.size()) + " "))
      << r.output;
  EXPECT_EQ(run("diff " + base + " " + q(dir / "fifth.csv") + " --allow-missing mlx").exit_code, 0)
      << "every target matched once, no share asked for";
}

TEST(CliDiff, BothRunsCommitsInTheHeaderAndTheJunit) {
  TempDir dir;
  auto base = legacy_run(), now = legacy_run();
  for (auto& row : base) row.set("commit", "aaaa1111");
  for (std::size_t i = 0; i < now.size(); ++i) now[i].set("commit", "c" + std::to_string(i + 1));
  testing::write_csv(dir / "base.csv", base);
  testing::write_csv(dir / "now.csv", now);
  const auto r = run("diff --junit " + q(dir / "gate.xml") + " " + q(dir / "base.csv") + " " + q(dir / "now.csv"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  // The first lines: the command, the verdict, the commits.
  std::istringstream lines(r.output);
  std::string line;
  for (int i = 0; i < 3 && std::getline(lines, line);) i += line.starts_with("note") ? 0 : 1;
  EXPECT_EQ(line, "commits: baseline aaaa1111; current c1, c2, c3 and 2 more") << r.output;
  if (!gridfuzz::testing::have_program("xmllint"))
    GTEST_SKIP() << "xmllint is not installed (Debian libxml2-utils; scripts/lib.sh installs it)";
  const auto property = [&](const std::string& name) {
    std::string out = gridfuzz::testing::run_split("xmllint --xpath 'string(//testsuite/properties/property[@name=\"" +
                                                   name + "\"]/@value)' " + q(dir / "gate.xml"))
                          .out;
    if (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
  };
  EXPECT_EQ(property("baseline.commits"), "aaaa1111");
  EXPECT_EQ(property("current.commits"), "c1, c2, c3 and 2 more");
  EXPECT_EQ(property("coverage"), "5/5");
  EXPECT_EQ(property("coverage.gguf.moe_vec.legacy"), "5/5");
}

// Each coverage finding is a failing testcase of its own, named without counts.
TEST(CliDiffCoverage, JunitHasATestcasePerCoverageFinding) {
  if (!gridfuzz::testing::have_program("xmllint"))
    GTEST_SKIP() << "xmllint is not installed (Debian libxml2-utils; scripts/lib.sh installs it)";
  TempDir dir;
  testing::write_csv(dir / "base.csv", joined(joined(legacy_run(), target_rows("gguf.moe_vec", "fixed", 2)),
                                              target_rows("mlx.qmm", "upstream", 2)));
  testing::write_csv(dir / "now.csv", legacy_run());
  const auto r = run("diff --min-coverage 95 --junit " + q(dir / "gate.xml") + " " + q(dir / "base.csv") + " " +
                     q(dir / "now.csv"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  const auto xpath = [&](const std::string& expr) {
    std::string out = gridfuzz::testing::run_split("xmllint --xpath " + gridfuzz::testing::shell_quote(expr) + " " +
                                                   q(dir / "gate.xml"))
                          .out;
    if (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
  };
  EXPECT_EQ(xpath("count(//testcase/failure)"), "3");
  EXPECT_EQ(xpath("string(//testcase[@classname='gate.unmatched-target']/@name)"), "gguf.moe_vec fixed");
  EXPECT_EQ(xpath("string(//testcase[@classname='gate.missing-family']/@name)"), "mlx");
  EXPECT_EQ(xpath("string(//testcase[@classname='gate.coverage']/@name)"), "matched share of the baseline");
  EXPECT_EQ(xpath("string(//testsuite/properties/property[@name='coverage']/@value)"), "5/9");
}

TEST(CliSweepShard, ShardsSplitTheSweepWithoutOverlap) {
  TempDir dir;
  // Two kernel families (their planning is fast), the defaults' tier and one random case per
  // target: a few hundred cases over 11 targets. The whole plan (~19000 static cases, most of its
  // time MLX's host geometry) four times took 15 min under ASan, for the same splitting logic.
  // --crossings-as-found: weighing cheaper shapes is no part of sharding, and slow under ASan.
  const std::string common = " 'gguf.*' 'affine.*' --tiers defaults --crossings-as-found --cases 1 --device-preset sm_90";
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
