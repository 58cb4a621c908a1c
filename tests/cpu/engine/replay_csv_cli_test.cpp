// `replay FILE.csv` re-runs every row of a CSV as one batch (each case once), `--failing` only the
// rows whose verdict fails a run; without a GPU the rows are judged statically, which is enough
// to check which cases were taken.
#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "gridfuzz/reports/csv_reader.hpp"
#include "../../support/run_gridfuzz.hpp"
#include "../../support/temp_dir.hpp"

namespace {

using gridfuzz::testing::TempDir;
using gridfuzz::testing::run_gridfuzz;

const std::string kStatic = " --static --device-preset sm_90";

std::multiset<std::string> case_ids(const std::string& path) {
  std::multiset<std::string> ids;
  for (const auto& row : gridfuzz::reports::read_csv(path).rows) ids.insert(row.get("case_id"));
  return ids;
}

// A static sweep of one small kernel: the rows to replay.
std::string sweep_rows(const TempDir& tmp) {
  const std::string csv = tmp / "swept.csv";
  const auto r = run_gridfuzz("sweep gguf.quantize_q8_1 --tiers defaults --cases 0 --csv " + csv + kStatic);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  return csv;
}

TEST(ReplayCsv, EveryRowOfACsvRunsOnceEach) {
  TempDir tmp;
  const std::string swept = sweep_rows(tmp);
  const auto ids = case_ids(swept);
  ASSERT_GT(ids.size(), 3u);
  const std::string out = tmp / "replayed.csv";
  const auto r = run_gridfuzz("replay " + swept + " --csv " + out + kStatic);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(case_ids(out), ids);
  EXPECT_NE(r.output.find(std::to_string(ids.size()) + " case(s), 0 failing"), std::string::npos) << r.output;
}

TEST(ReplayCsv, ACaseTwiceInTheCsvRunsOnce) {
  TempDir tmp;
  const std::string swept = sweep_rows(tmp);
  std::ifstream in(swept);
  std::string header, first;
  std::getline(in, header);
  std::getline(in, first);
  const std::string doubled = tmp / "doubled.csv";
  std::ofstream(doubled) << header << "\n" << first << "\n" << first << "\n";
  const std::string out = tmp / "out.csv";
  EXPECT_EQ(run_gridfuzz("replay " + doubled + " --csv " + out + kStatic).exit_code, 0);
  EXPECT_EQ(case_ids(out).size(), 1u);
}

TEST(ReplayCsv, FailingTakesOnlyTheRowsThatFailARun) {
  TempDir tmp;
  const std::string swept = sweep_rows(tmp);
  // Mark one row failing (its verdict column, a vocabulary value): only that case is replayed.
  std::ifstream in(swept);
  std::string header, line, marked_id;
  std::getline(in, header);
  std::vector<std::string> lines;
  while (std::getline(in, line)) lines.push_back(line);
  ASSERT_GE(lines.size(), 2u);
  const std::string edited = tmp / "edited.csv";
  {
    std::ofstream out(edited);
    out << header << "\n";
    for (std::size_t i = 0; i < lines.size(); ++i) {
      std::string l = lines[i];
      if (i == 1) {
        const auto at = l.find(",static,");  // observed,...,verdict: the verdict is the second "static"
        const auto verdict_at = l.find(",static,", at + 1);
        ASSERT_NE(verdict_at, std::string::npos) << l;
        l.replace(verdict_at, 8, ",fail:mismatch,");
      }
      out << l << "\n";
    }
  }
  marked_id = gridfuzz::reports::read_csv(edited).rows[1].get("case_id");
  ASSERT_EQ(gridfuzz::reports::read_csv(edited).rows[1].get("verdict"), "fail:mismatch");
  const std::string out = tmp / "failing.csv";
  const auto r = run_gridfuzz("replay " + edited + " --failing --csv " + out + kStatic);
  EXPECT_EQ(r.exit_code, 0) << r.output;  // judged statically now: not failing
  EXPECT_EQ(case_ids(out), std::multiset<std::string>{marked_id});
}

TEST(ReplayCsv, FailingNeedsAWholeCsv) {
  TempDir tmp;
  const std::string swept = sweep_rows(tmp);
  const auto one_row = run_gridfuzz("replay " + swept + ":1 --failing" + kStatic);
  EXPECT_EQ(one_row.exit_code, 2) << one_row.output;
  EXPECT_NE(one_row.output.find("--failing"), std::string::npos) << one_row.output;
  const auto text = run_gridfuzz("replay 'gguf.quantize_q8_1/fixed/1/cols=4096,nvecs=8' --failing" + kStatic);
  EXPECT_EQ(text.exit_code, 2) << text.output;
}

}  // namespace
