// Where the time went: the phase columns of schema 1.4 summed per kernel, "other" as what the
// runner spent between phases, rows without the columns left out.
#include <gtest/gtest.h>

#include "gridfuzz/reports/phase_table.hpp"
#include "test_support.hpp"

namespace gridfuzz::reports {
namespace {

CsvRow ran(const std::string& kernel, double plan, double call, double cpu, double case_ms, double worker) {
  CsvRow row = testing::valid_row();
  row.set("kernel", kernel);
  for (const char* c : {"alloc_ms", "fill_ms", "reference_ms", "compare_ms", "timing_ms"}) row.set_double(c, 0);
  row.set_double("plan_ms", plan);
  row.set_double("call_ms", call);
  row.set_double("cpu_ms", cpu);
  row.set_double("case_ms", case_ms);
  row.set_double("worker_ms", worker);
  return row;
}

TEST(PhaseTable, SumsEachPhasePerKernelAndTheRun) {
  CsvRow static_row = testing::valid_row();  // no phase columns: not counted
  const std::vector<CsvRow> rows{ran("b.k", 1, 10, 4, 20, 100), ran("a.k", 2, 3, 0, 5, 0), ran("b.k", 1, 10, 4, 20, 0),
                                 static_row};
  const auto totals = phase_totals(rows);
  ASSERT_EQ(totals.size(), 3u);
  EXPECT_EQ(totals[0].kernel, "a.k");
  EXPECT_EQ(totals[1].kernel, "b.k");
  EXPECT_EQ(totals[2].kernel, "all");
  EXPECT_EQ(totals[1].cases, 2u);
  EXPECT_EQ(totals[2].cases, 3u);
  EXPECT_DOUBLE_EQ(totals[1].ms[0], 2);    // plan
  EXPECT_DOUBLE_EQ(totals[1].ms[3], 20);   // call
  EXPECT_DOUBLE_EQ(totals[1].ms[6], 8);    // cpu
  EXPECT_DOUBLE_EQ(totals[1].ms[8], 10);   // other: 2 x (20 - 1 - 10 - 4)
  EXPECT_DOUBLE_EQ(totals[1].ms[9], 100);  // worker
  EXPECT_DOUBLE_EQ(totals[1].total_ms(), 140);
  EXPECT_DOUBLE_EQ(totals[2].total_ms(), 145);
  const std::string md = phase_section(rows);
  EXPECT_NE(md.find("| b.k | 2 | 0.1 | 70.0 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| **all** | 3 |"), std::string::npos) << md;
}

TEST(PhaseTable, SaysSoWhenNoRowHasThePhases) {
  EXPECT_TRUE(phase_totals({testing::valid_row()}).empty());
  EXPECT_NE(phase_section({testing::valid_row()}).find("No row has the phase columns"), std::string::npos);
}

}  // namespace
}  // namespace gridfuzz::reports
