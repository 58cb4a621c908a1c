// What selects and stops the cases of a command, end to end without a GPU (--static): `sweep
// --where` (axis predicates), `--maxfail N` of run/sweep/replay, and `replay --failed CSV`.
// Static rows never fail a run, so here --maxfail is checked for its input and for stopping
// nothing; its stopping is tested with an executor whose cases fail (run_batch_test,
// sweep_run_test).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "gridfuzz/reports/csv_reader.hpp"
#include "../../support/cli_expect.hpp"
#include "../../support/run_gridfuzz.hpp"
#include "../../support/temp_dir.hpp"

namespace {

using gridfuzz::testing::expect_one_line;
using gridfuzz::testing::run_gridfuzz;
using gridfuzz::testing::TempDir;

const std::string kStatic = " --static --device-preset sm_90";

std::vector<gridfuzz::reports::CsvRow> rows_of(const std::string& path) { return gridfuzz::reports::read_csv(path).rows; }

TEST(SweepWhere, EveryRowSatisfiesThePredicates) {
  TempDir tmp;
  const std::string all = tmp / "all.csv", big = tmp / "big.csv";
  ASSERT_EQ(run_gridfuzz("sweep gguf.moe_vec --cases 20 --csv " + all + kStatic).exit_code, 0);
  const auto r = run_gridfuzz("sweep gguf.moe_vec --cases 20 --where 'tokens>=8192' --where 'top_k<=4,quant=q4_0' --csv " +
                              big + kStatic);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto rows = rows_of(big);
  ASSERT_FALSE(rows.empty());
  std::set<std::string> tiers;
  for (const auto& row : rows) {
    EXPECT_GE(std::stoll(row.get("tokens")), 8192) << row.get("replay");
    EXPECT_LE(std::stoll(row.get("top_k")), 4) << row.get("replay");
    EXPECT_EQ(row.get("quant"), "q4_0") << row.get("replay");
    tiers.insert(row.get("tier"));
  }
  EXPECT_TRUE(tiers.contains("random")) << "the random cases are drawn within the predicates too";
  EXPECT_LT(rows.size(), rows_of(all).size());
}

TEST(SweepWhere, AKernelWithoutTheAxisIsLeftOutWithANote) {
  TempDir tmp;
  const std::string csv = tmp / "w.csv";
  const auto r = run_gridfuzz("sweep gguf.moe_vec gguf.quantize_q8_1 --cases 5 --where 'tokens>=8192' --csv " + csv + kStatic);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("gguf.quantize_q8_1: not swept: it lacks an axis of --where 'tokens>=8192'"), std::string::npos)
      << r.output;
  for (const auto& row : rows_of(csv)) EXPECT_EQ(row.get("kernel"), "gguf.moe_vec");
}

TEST(SweepWhere, BadPredicatesAreExit2WithOneLineAndNoCsv) {
  TempDir tmp;
  const std::string csv = tmp / "bad.csv";
  const std::pair<std::string, std::string> bad[] = {
      {"'vocabb>=8'", "no selected kernel has an axis 'vocabb'"},
      {"'tokens=>8'", "more than one operator"},
      {"'tokens'", "is not AXIS OP VALUE"},
      {"'tokens>=lots'", "'lots' is not a 64-bit integer"},
      {"'quant<q4_0'", "choice axis: it takes = and != only"},
      {"'quant=q9_9'", "has the choice 'q9_9'"},
      {"'tokens>=8,'", "empty predicate"},
  };
  for (const auto& [where, message] : bad) {
    SCOPED_TRACE(where);
    expect_one_line(run_gridfuzz("sweep gguf.moe_vec --cases 5 --where " + where + " --csv " + csv + kStatic), 2, message);
  }
  EXPECT_FALSE(std::filesystem::exists(csv)) << "bad input starts no CSV";
}

TEST(MaxFail, IsAcceptedByRunSweepAndReplayAndStopsNothingWithoutFailures) {
  TempDir tmp;
  const std::string swept = tmp / "s.csv", replayed = tmp / "r.csv";
  const auto sweep = run_gridfuzz("sweep gguf.quantize_q8_1 --tiers defaults --cases 0 --maxfail 1 --csv " + swept + kStatic);
  ASSERT_EQ(sweep.exit_code, 0) << sweep.output;
  EXPECT_EQ(sweep.output.find("--maxfail"), std::string::npos) << sweep.output;
  const auto rows = rows_of(swept).size();
  ASSERT_GT(rows, 2u);
  const auto replay = run_gridfuzz("replay " + swept + " --maxfail 1 --csv " + replayed + kStatic);
  EXPECT_EQ(replay.exit_code, 0) << replay.output;
  EXPECT_EQ(rows_of(replayed).size(), rows);
  const auto run = run_gridfuzz("run gguf.moe_vec --variant fixed --set tokens=1,2,3 --maxfail 1" + kStatic);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("3 case(s), 0 failing"), std::string::npos) << run.output;
}

TEST(MaxFail, NIsAWholeNumberOfAtLeastOne) {
  for (const std::string n : {"0", "-1", "x", "1.5"}) {
    SCOPED_TRACE(n);
    const auto r = run_gridfuzz("run gguf.moe_vec --maxfail " + n + kStatic);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("--maxfail"), std::string::npos) << r.output;
  }
}

// `replay --failed CSV` takes the rows whose verdict fails a run, as `replay CSV --failing` does.
TEST(ReplayFailed, TakesTheFailingRowsOfTheCsv) {
  TempDir tmp;
  const std::string swept = tmp / "s.csv";
  ASSERT_EQ(run_gridfuzz("sweep gguf.quantize_q8_1 --tiers defaults --cases 0 --csv " + swept + kStatic).exit_code, 0);
  // Two rows marked failing in their verdict column (the second "static" of a static row).
  std::ifstream in(swept);
  std::string header, line;
  std::getline(in, header);
  std::vector<std::string> lines;
  while (std::getline(in, line)) lines.push_back(line);
  ASSERT_GE(lines.size(), 3u);
  const std::string edited = tmp / "edited.csv";
  {
    std::ofstream out(edited);
    out << header << "\n";
    for (std::size_t i = 0; i < lines.size(); ++i) {
      std::string l = lines[i];
      if (i == 0 || i == 2) {
        const auto verdict_at = l.find(",static,", l.find(",static,") + 1);
        ASSERT_NE(verdict_at, std::string::npos) << l;
        l.replace(verdict_at, 8, i == 0 ? ",fail:mismatch," : ",model-mismatch,");
      }
      out << l << "\n";
    }
  }
  const auto marked = rows_of(edited);
  const std::multiset<std::string> want{marked[0].get("case_id"), marked[2].get("case_id")};
  for (const std::string spelling : {"--failed " + edited, edited + " --failing"}) {
    SCOPED_TRACE(spelling);
    const std::string out = tmp / "out.csv";
    std::filesystem::remove(out);
    const auto r = run_gridfuzz("replay " + spelling + " --csv " + out + kStatic);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    std::multiset<std::string> got;
    for (const auto& row : rows_of(out)) got.insert(row.get("case_id"));
    EXPECT_EQ(got, want);
  }
}

TEST(ReplayFailed, NamesItsCasesOnceAndInAFile) {
  TempDir tmp;
  const std::string swept = tmp / "s.csv";
  ASSERT_EQ(run_gridfuzz("sweep gguf.quantize_q8_1 --tiers defaults --cases 0 --csv " + swept + kStatic).exit_code, 0);
  expect_one_line(run_gridfuzz("replay " + swept + " --failed " + swept + kStatic), 2, "not both");
  expect_one_line(run_gridfuzz("replay" + kStatic), 2, "name the cases");
  const auto missing = run_gridfuzz("replay --failed " + (tmp / "none.csv") + kStatic);
  EXPECT_NE(missing.exit_code, 0) << missing.output;
  EXPECT_NE(missing.output.find("none.csv"), std::string::npos) << missing.output;
  const auto none = run_gridfuzz("replay --failed " + swept + kStatic);  // static rows: none fails
  EXPECT_EQ(none.exit_code, 0) << none.output;
  EXPECT_NE(none.output.find("holds no failing row to replay"), std::string::npos) << none.output;
}

}  // namespace
