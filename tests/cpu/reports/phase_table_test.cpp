// Where the time went: the phase columns of schema 1.4 summed per kernel and tier (schema 1.5),
// "other" as what the runner spent between phases, rows without the columns left out.
#include <gtest/gtest.h>

#include "gridfuzz/reports/phase_table.hpp"
#include "test_support.hpp"

namespace gridfuzz::reports {
namespace {

CsvRow ran(const std::string& kernel, double plan, double call, double cpu, double case_ms, double worker,
           const std::string& tier = "") {
  CsvRow row = testing::valid_row();
  row.set("kernel", kernel);
  for (const char* c : {"alloc_ms", "fill_ms", "reference_ms", "compare_ms", "timing_ms"}) row.set_double(c, 0);
  row.set_double("plan_ms", plan);
  row.set_double("call_ms", call);
  row.set_double("cpu_ms", cpu);
  row.set_double("case_ms", case_ms);
  row.set_double("worker_ms", worker);
  row.set("tier", tier);
  return row;
}

TEST(PhaseTable, SumsEachPhasePerKernelAndTheRun) {
  CsvRow static_row = testing::valid_row();  // no phase columns: not counted
  const std::vector<CsvRow> rows{ran("b.k", 1, 10, 4, 20, 100), ran("a.k", 2, 3, 0, 5, 0), ran("b.k", 1, 10, 4, 20, 0),
                                 static_row};
  const auto totals = phase_totals(rows);
  // One tier (none: no sweep made these rows): a row per kernel, and the run's; no sums of one.
  ASSERT_EQ(totals.size(), 3u);
  EXPECT_EQ(totals[0].kernel, "a.k");
  EXPECT_EQ(totals[1].kernel, "b.k");
  EXPECT_FALSE(totals[2].kernel.has_value());
  EXPECT_FALSE(totals[1].every_tier);
  EXPECT_FALSE(totals[1].tier.has_value());
  EXPECT_TRUE(totals[2].every_tier);
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
  EXPECT_NE(md.find("| kernel | tier | cases | seconds | per case ms | plan |"), std::string::npos) << md;
  EXPECT_NE(md.find("| b.k | - | 2 | 0.1 | 70.0 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| **all** | **all** | 3 |"), std::string::npos) << md;
}

// Per kernel, one row per tier in the order a sweep runs them (rows of no sweep last), then the
// kernel's sum; then the run's tiers over every kernel, and the run's sum.
TEST(PhaseTable, GroupsEachKernelByTier) {
  const std::vector<CsvRow> rows{
      ran("b.k", 0, 1, 0, 1, 0, "shrink"),   ran("b.k", 0, 2, 0, 2, 0, "random"),
      ran("b.k", 0, 4, 0, 4, 0, "defaults"), ran("b.k", 0, 8, 0, 8, 0, "random"),
      ran("b.k", 0, 16, 0, 16, 0, ""),       ran("a.k", 0, 32, 0, 32, 0, "random"),
      ran("a.k", 0, 64, 0, 64, 0, "profile-sizes")};
  const auto totals = phase_totals(rows);
  struct Expected {
    std::optional<std::string> kernel;
    bool every_tier;
    std::optional<CaseTier> tier;
    std::size_t cases;
    double ms;
  };
  const std::vector<Expected> expected{
      {"a.k", false, CaseTier::profile_sizes, 1, 64},
      {"a.k", false, CaseTier::random, 1, 32},
      {"a.k", true, std::nullopt, 2, 96},
      {"b.k", false, CaseTier::defaults, 1, 4},
      {"b.k", false, CaseTier::random, 2, 10},
      {"b.k", false, CaseTier::shrink, 1, 1},
      {"b.k", false, std::nullopt, 1, 16},  // no sweep made it
      {"b.k", true, std::nullopt, 5, 31},
      {std::nullopt, false, CaseTier::defaults, 1, 4},
      {std::nullopt, false, CaseTier::profile_sizes, 1, 64},
      {std::nullopt, false, CaseTier::random, 3, 42},
      {std::nullopt, false, CaseTier::shrink, 1, 1},
      {std::nullopt, false, std::nullopt, 1, 16},
      {std::nullopt, true, std::nullopt, 7, 127},
  };
  ASSERT_EQ(totals.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(totals[i].kernel, expected[i].kernel) << i;
    EXPECT_EQ(totals[i].every_tier, expected[i].every_tier) << i;
    if (!expected[i].every_tier) {
      EXPECT_EQ(totals[i].tier, expected[i].tier) << i;
    }
    EXPECT_EQ(totals[i].cases, expected[i].cases) << i;
    EXPECT_DOUBLE_EQ(totals[i].ms[3], expected[i].ms) << i;  // call: the whole case here
    EXPECT_DOUBLE_EQ(totals[i].total_ms(), expected[i].ms) << i;
  }
  const std::string md = phase_section(rows);
  for (const char* line : {"| a.k | profile-sizes | 1 |", "| a.k | random | 1 |", "| a.k | **all** | 2 |",
                           "| b.k | random | 2 |", "| b.k | - | 1 |", "| **all** | random | 3 |",
                           "| **all** | - | 1 |", "| **all** | **all** | 7 | 0.1 | 18.1 |"})
    EXPECT_NE(md.find(line), std::string::npos) << line << "\n" << md;
  EXPECT_LT(md.find("| b.k | defaults |"), md.find("| b.k | random |")) << md;
  EXPECT_LT(md.find("| b.k | shrink |"), md.find("| b.k | - |")) << md;
}

// One kernel of several tiers: its sum is the run's, said once.
TEST(PhaseTable, OneKernelHasNoRunTiersOfItsOwn) {
  const auto totals = phase_totals({ran("a.k", 0, 1, 0, 1, 0, "defaults"), ran("a.k", 0, 2, 0, 2, 0, "random")});
  ASSERT_EQ(totals.size(), 4u);
  EXPECT_EQ(totals[2].kernel, "a.k");
  EXPECT_TRUE(totals[2].every_tier);
  EXPECT_FALSE(totals[3].kernel.has_value());
  EXPECT_TRUE(totals[3].every_tier);
}

TEST(PhaseTable, SaysSoWhenNoRowHasThePhases) {
  EXPECT_TRUE(phase_totals({testing::valid_row()}).empty());
  EXPECT_NE(phase_section({testing::valid_row()}).find("No row has the phase columns"), std::string::npos);
}

}  // namespace
}  // namespace gridfuzz::reports
