// The ledger's findings against a run (reports/ledger_matches.hpp) and through `gridfuzz report`
// and `gridfuzz diff --ledger`: an entry the run reached (its kernel, variant and condition) that
// no row matched is said; an entry the run never reached is not (a partial run flags nothing);
// a bad entry is exit 2 naming its line, with nothing written.
#include "gridfuzz/reports/ledger_matches.hpp"

#include <gtest/gtest.h>

#include "../../support/run_gridfuzz.hpp"
#include "crafted_rows.hpp"

namespace gridfuzz::reports {
namespace {

using testing::make_row;
using testing::TempDir;

constexpr const char* kLedgerText =
    "vllm.moe_mmq upstream fail:unwritten vllm-gguf.md#finding-5 moe.cuh:33 if experts > 256\n"
    "vllm.moe_mmq chunked fail:unwritten vllm-gguf.md#finding-5 moe.cuh:33 if experts > 256\n";

CsvRow moe_mmq(const std::string& variant, int experts, bool failed) {
  CsvRow row = make_row("vllm.moe_mmq", variant, {{"experts", std::to_string(experts)}, {"tokens", "256"}});
  if (failed) {
    row.set("oracle", "split:exact:0 unwritten:41728 cpu:0/0");
    row.set("verdict", "expected-fail");
    row.set("finding", "vllm-gguf.md#finding-5");
  }
  return row;
}

TEST(LedgerMatches, CountsRowsThatReachedAndMatchedEachFinding) {
  const Ledger ledger = Ledger::parse(kLedgerText);
  const auto m = match_ledger(ledger, {moe_mmq("upstream", 384, true), moe_mmq("upstream", 300, false),
                                       moe_mmq("upstream", 256, false), moe_mmq("chunked", 384, false)});
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].reached, 2u);  // 384 and 300 experts; 256 is outside the condition
  EXPECT_EQ(m[0].matched, 1u);
  EXPECT_FALSE(m[0].unmatched());
  EXPECT_EQ(m[1].reached, 1u);
  EXPECT_EQ(m[1].matched, 0u);
  EXPECT_TRUE(m[1].unmatched());
  EXPECT_EQ(unmatched_line(m, "kf.txt"),
            "ledger entries unmatched: kf.txt:2 vllm.moe_mmq chunked vllm-gguf.md#finding-5 (1 case(s) reached it, "
            "none failed so)");
}

TEST(LedgerMatches, ARunThatNeverReachedAnEntryFlagsNothing) {
  const Ledger ledger = Ledger::parse(kLedgerText);
  // Another kernel only (a partial run), the finding's kernel outside its condition, static rows.
  CsvRow static_row = moe_mmq("chunked", 384, false);
  static_row.set("observed", "static");
  static_row.set("verdict", "static");
  const auto m = match_ledger(ledger, {make_row("gguf.moe_vec", "fixed", {{"tokens", "8"}}),
                                       moe_mmq("upstream", 128, false), static_row});
  EXPECT_EQ(m[0].reached + m[1].reached, 0u);
  EXPECT_EQ(unmatched_line(m, "kf.txt"), "");
}

std::string q(const std::filesystem::path& p) { return "'" + p.string() + "'"; }

TEST(CliLedger, ReportAndDiffNameAnEntryTheRunReachedButNoRowMatched) {
  TempDir dir;
  testing::write_text(dir / "kf.txt", kLedgerText);
  testing::write_csv(dir / "run.csv", {moe_mmq("upstream", 384, true), moe_mmq("chunked", 384, false)});
  const std::string says = "ledger entries unmatched: " + (dir / "kf.txt").string() +
                           ":2 vllm.moe_mmq chunked vllm-gguf.md#finding-5 (1 case(s) reached it, none failed so)";
  const auto report = gridfuzz::testing::run_gridfuzz("report " + q(dir / "run.csv") + " --ledger " + q(dir / "kf.txt"));
  EXPECT_EQ(report.exit_code, 0) << report.output;
  EXPECT_NE(report.output.find(says), std::string::npos) << report.output;
  EXPECT_EQ(report.output.find("kf.txt:1 "), std::string::npos) << report.output;  // matched: not said
  const auto diff = gridfuzz::testing::run_gridfuzz("diff " + q(dir / "run.csv") + " " + q(dir / "run.csv") +
                                                    " --ledger " + q(dir / "kf.txt"));
  EXPECT_EQ(diff.exit_code, 0) << diff.output;  // said, not a gate failure
  EXPECT_NE(diff.output.find(says), std::string::npos) << diff.output;
  const auto json = gridfuzz::testing::run_gridfuzz("diff " + q(dir / "run.csv") + " " + q(dir / "run.csv") +
                                                    " --json --ledger " + q(dir / "kf.txt"));
  EXPECT_NE(json.output.find("\"ledger_unmatched\":["), std::string::npos) << json.output;
  // Every entry matched: nothing said.
  testing::write_csv(dir / "run.csv", {moe_mmq("upstream", 384, true), moe_mmq("chunked", 384, true)});
  const auto clean = gridfuzz::testing::run_gridfuzz("report " + q(dir / "run.csv") + " --ledger " + q(dir / "kf.txt"));
  EXPECT_EQ(clean.output.find("ledger entries unmatched"), std::string::npos) << clean.output;
}

TEST(CliLedger, ABadEntryIsExit2NamingItsLineAndNothingIsWritten) {
  TempDir dir;
  testing::write_text(dir / "kf.txt", std::string(kLedgerText) + "vllm.moe_mmq upstream fail:fault x.md#f-1 a.cu:1 if experts >> 2\n");
  testing::write_csv(dir / "run.csv", {moe_mmq("upstream", 384, true)});
  for (const std::string& command :
       {"report " + q(dir / "run.csv") + " --out " + q(dir / "out") + " --ledger " + q(dir / "kf.txt"),
        "diff " + q(dir / "run.csv") + " " + q(dir / "run.csv") + " --junit " + q(dir / "j.xml") + " --ledger " +
            q(dir / "kf.txt"),
        "run gguf.moe_vec --static --device-preset sm_90 --csv " + q(dir / "rows.csv") + " --ledger " + q(dir / "kf.txt")}) {
    const auto r = gridfuzz::testing::run_gridfuzz(command);
    EXPECT_EQ(r.exit_code, 2) << command << "\n" << r.output;
    EXPECT_NE(r.output.find("kf.txt:3: "), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("condition 'experts >> 2'"), std::string::npos) << r.output;
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
  EXPECT_FALSE(std::filesystem::exists(dir / "j.xml"));
  EXPECT_FALSE(std::filesystem::exists(dir / "rows.csv"));
}

// The run commands also check a condition's names against the kernel's axes: a typo would make
// the entry match nothing, silently.
TEST(CliLedger, AConditionOnNoAxisOfItsKernelIsExit2) {
  TempDir dir;
  testing::write_text(dir / "kf.txt", "gguf.moe_vec fixed fail:fault x.md#f-1 a.cu:1 if tokenz > 2\n");
  const auto r = gridfuzz::testing::run_gridfuzz("run gguf.moe_vec --static --device-preset sm_90 --ledger " + q(dir / "kf.txt"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("kf.txt:1: the condition reads 'tokenz', which is no axis of gguf.moe_vec"),
            std::string::npos)
      << r.output;
}

}  // namespace
}  // namespace gridfuzz::reports
