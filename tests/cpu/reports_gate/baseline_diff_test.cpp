// The gate's rules on crafted runs: what fails it and what is only listed.
#include <gtest/gtest.h>

#include "crafted_rows.hpp"
#include "gridfuzz/core/ledger.hpp"
#include "gridfuzz/reports/baseline_diff.hpp"

namespace gridfuzz::reports {
namespace {

using testing::make_row;
using testing::moe_vec_legacy_row;
using testing::set_timing;

std::vector<CsvRow> legacy_boundary_run() {
  std::vector<CsvRow> rows;
  for (std::int64_t t = 8190; t <= 8194; ++t) rows.push_back(moe_vec_legacy_row(t));
  return rows;
}

CsvRow fixed_row(std::int64_t tokens) {
  return make_row("gguf.moe_vec", "fixed", {{"tokens", std::to_string(tokens)}, {"top_k", "8"}});
}

TEST(BaselineDiff, IdenticalRunsPass) {
  const auto run = legacy_boundary_run();
  const BaselineDiff diff = diff_runs(run, run);
  EXPECT_FALSE(diff.gate_failed()) << render_diff(diff);
  EXPECT_EQ(diff.matched_cases, run.size());
  EXPECT_NE(render_diff(diff).find("gate: passed"), std::string::npos);
}

TEST(BaselineDiff, MovedBoundaryFails) {
  const auto baseline = legacy_boundary_run();
  // The device now refuses from 8193 tokens: 8192 passes (the model still says refuse).
  auto current = legacy_boundary_run();
  current[2].set("observed", "accept");
  current[2].set("oracle", "exact");
  current[2].set("verdict", "model-mismatch");
  const BaselineDiff diff = diff_runs(baseline, current);
  EXPECT_TRUE(diff.gate_failed());
  ASSERT_EQ(diff.moved_boundaries.size(), 1u) << render_diff(diff);
  EXPECT_EQ(diff.moved_boundaries[0].after.axis, "tokens");
  EXPECT_NE(diff.moved_boundaries[0].what.find("observed first fail 8192 -> 8193"), std::string::npos)
      << diff.moved_boundaries[0].what;
  EXPECT_EQ(diff.new_model_mismatches.size(), 1u);
  const std::string text = render_diff(diff);
  EXPECT_NE(text.find("Moved boundaries (1)"), std::string::npos) << text;
  EXPECT_NE(text.find("gate: FAILED"), std::string::npos) << text;
}

TEST(BaselineDiff, PredictedBoundaryMoveFails) {
  const auto baseline = legacy_boundary_run();
  auto current = legacy_boundary_run();
  for (auto& row : current) {
    // A model change: the prediction now says accept at 8192 (and the device still refuses).
    if (row.get("tokens") == "8192") row.set("predicted", "accept");
  }
  const BaselineDiff diff = diff_runs(baseline, current);
  ASSERT_EQ(diff.moved_boundaries.size(), 1u) << render_diff(diff);
  EXPECT_NE(diff.moved_boundaries[0].what.find("predicted first fail 8192 -> 8193"), std::string::npos);
}

// A budgeted run that stopped below the baseline's boundary found no failure there: that is not
// a move (it judged nothing at 8192), so it is listed, not failed. A run that judged 8192 and saw
// it pass did move the boundary.
TEST(BaselineDiff, BoundaryTheRunNeverReachedIsNotAMove) {
  const auto baseline = legacy_boundary_run();  // 8190..8194, first fail 8192
  const std::vector<CsvRow> short_run(baseline.begin(), baseline.begin() + 2);  // 8190, 8191
  const BaselineDiff diff = diff_runs(baseline, short_run);
  EXPECT_FALSE(diff.gate_failed()) << render_diff(diff);
  EXPECT_TRUE(diff.moved_boundaries.empty());
  ASSERT_EQ(diff.boundaries_not_reached.size(), 1u) << render_diff(diff);
  EXPECT_NE(diff.boundaries_not_reached[0].what.find("8192 -> none (not in the current run: 8192)"), std::string::npos)
      << diff.boundaries_not_reached[0].what;
  EXPECT_NE(render_diff(diff).find("did not reach"), std::string::npos);
  // The other way round: the baseline stopped short, the current run found the boundary.
  const BaselineDiff reverse = diff_runs(short_run, baseline);
  EXPECT_TRUE(reverse.moved_boundaries.empty()) << render_diff(reverse);
  EXPECT_EQ(reverse.boundaries_not_reached.size(), 1u);

  // Reaching the value and finding it passes is a move.
  auto passing = baseline;
  for (auto& row : passing) {
    row.set("predicted", "accept");
    row.set("observed", "accept");
    row.set("oracle", "split:exact:0 unwritten:0 cpu:256/256");
    row.set("verdict", "pass");
  }
  const BaselineDiff moved = diff_runs(baseline, passing);
  EXPECT_TRUE(moved.gate_failed());
  EXPECT_EQ(moved.moved_boundaries.size(), 1u) << render_diff(moved);
}

// Issue 29: a boundary is compared over the points both runs hold. A run that lacks the baseline's
// boundary case (a budget stopped it before 8192) but holds the points around it finds its first
// fail at 8193; the baseline fails there too, so nothing moved: the boundary was not reached. On
// the H200 40 of 50 moved boundaries were this (evidence/2026-12-04-h200-nightly-ecac781).
TEST(BaselineDiff, ABoundaryCaseOneRunLacksIsNotReachedNotAMove) {
  const auto baseline = legacy_boundary_run();  // 8190..8194, first fail 8192 (predicted and observed)
  std::vector<CsvRow> without_8192;
  for (const CsvRow& row : baseline)
    if (row.get("tokens") != "8192") without_8192.push_back(row);
  const BaselineDiff diff = diff_runs(baseline, without_8192);
  EXPECT_FALSE(diff.gate_failed()) << render_diff(diff);
  EXPECT_TRUE(diff.moved_boundaries.empty());
  ASSERT_EQ(diff.boundaries_not_reached.size(), 1u) << render_diff(diff);
  EXPECT_EQ(diff.boundaries_not_reached[0].what,
            "predicted first fail 8192 -> 8193 (not in the current run: 8192); "
            "observed first fail 8192 -> 8193 (not in the current run: 8192)");
  EXPECT_EQ(diff.boundary_lines_in_both, 1u);
  EXPECT_NE(render_diff(diff).find("boundary lines in both runs 1: 1 not reached by one run"), std::string::npos)
      << render_diff(diff);
  // The baseline lacking the case, the current run holding it: the same.
  const BaselineDiff reverse = diff_runs(without_8192, baseline);
  EXPECT_FALSE(reverse.gate_failed()) << render_diff(reverse);
  ASSERT_EQ(reverse.boundaries_not_reached.size(), 1u) << render_diff(reverse);
  EXPECT_NE(reverse.boundaries_not_reached[0].what.find("8193 -> 8192 (not in the baseline: 8192)"), std::string::npos)
      << reverse.boundaries_not_reached[0].what;

  // Over the points both hold the runs disagree when 8193 passes now: a move, without 8192 too.
  auto passes_8193 = without_8192;
  for (CsvRow& row : passes_8193)
    if (row.get("tokens") == "8193") {
      row.set("predicted", "accept");
      row.set("observed", "accept");
      row.set("oracle", "exact");
      row.set("verdict", "pass");
    }
  const BaselineDiff moved = diff_runs(baseline, passes_8193);
  EXPECT_TRUE(moved.gate_failed());
  ASSERT_EQ(moved.moved_boundaries.size(), 1u) << render_diff(moved);
  EXPECT_EQ(moved.moved_boundaries[0].what, "predicted first fail 8192 -> 8194; observed first fail 8192 -> 8194");
  EXPECT_TRUE(moved.boundaries_not_reached.empty());
}

// MLX's epilogue race (mlx.md finding 6) as the checked-in ledger names it.
constexpr const char* kRaceLedger =
    "mlx.qmm upstream fail:nondeterministic mlx.md#finding-6 qmm_sm80.cuh:249-271 if cols / 64 % 3 != 1\n";

CsvRow mlx_row(std::int64_t tokens) {
  return make_row("mlx.qmm", "upstream",
                  {{"tokens", std::to_string(tokens)}, {"cols", "2816"}, {"vocab", "4096"}, {"bits", "4"}});
}

// The race as the run records it: the call made twice differed, the ledger expects that here.
void make_race(CsvRow& row) {
  row.set("oracle", "split:exact:24 unwritten:0 cpu:250/256 self:differ:24");
  row.set("verdict", "expected-fail");
  row.set("finding", "mlx.md#finding-6");
}

// Issue 29: a boundary that moves only because a known race showed in one run and not the other
// is that race, not a move, and does not fail the gate; the race's rows beside a real move do not
// hide the move.
TEST(BaselineDiff, ABoundaryOnlyANamedRaceMovesIsThatRaceNotAMove) {
  DiffOptions options;
  options.known_races = KnownRaces(Ledger::parse(kRaceLedger));
  std::vector<CsvRow> clean;
  for (std::int64_t t = 64; t <= 68; ++t) clean.push_back(mlx_row(t));
  auto raced = clean;
  make_race(raced[2]);  // tokens 66

  const BaselineDiff appeared = diff_runs(clean, raced, options);
  EXPECT_FALSE(appeared.gate_failed()) << render_diff(appeared);
  EXPECT_TRUE(appeared.moved_boundaries.empty());
  ASSERT_EQ(appeared.boundaries_moved_by_race.size(), 1u) << render_diff(appeared);
  EXPECT_EQ(appeared.boundaries_moved_by_race[0].what, "observed first fail none -> 66 (a race: mlx.md#finding-6)");
  EXPECT_NE(render_diff(appeared).find("Boundaries moved only by a race"), std::string::npos) << render_diff(appeared);
  const BaselineDiff gone = diff_runs(raced, clean, options);
  EXPECT_FALSE(gone.gate_failed()) << render_diff(gone);
  EXPECT_EQ(gone.boundaries_moved_by_race.size(), 1u) << render_diff(gone);

  // The ledger decides: where it names no such race the same rows move the boundary.
  const BaselineDiff unnamed = diff_runs(clean, raced);
  EXPECT_TRUE(unnamed.gate_failed());
  EXPECT_EQ(unnamed.moved_boundaries.size(), 1u) << render_diff(unnamed);

  // fail:nondeterministic is a race whatever the ledger says: the baseline's, not seen now.
  auto unexpected = clean;
  unexpected[2].set("oracle", "split:exact:24 unwritten:0 cpu:250/256 self:differ:24");
  unexpected[2].set("verdict", "fail:nondeterministic");
  const BaselineDiff not_seen = diff_runs(unexpected, clean);
  EXPECT_FALSE(not_seen.gate_failed()) << render_diff(not_seen);
  EXPECT_EQ(not_seen.races_not_seen.size(), 1u);
  ASSERT_EQ(not_seen.boundaries_moved_by_race.size(), 1u) << render_diff(not_seen);
  EXPECT_EQ(not_seen.boundaries_moved_by_race[0].what,
            "observed first fail 66 -> none (a race: fail:nondeterministic)");

  // A real failure beside the race: 67 refused now, which no race explains.
  auto refused = raced;
  refused[3].set("observed", "refuse:CUDA_ERROR_INVALID_VALUE");
  refused[3].set("oracle", "-");
  refused[3].set("verdict", "model-mismatch");
  const BaselineDiff both = diff_runs(clean, refused, options);
  EXPECT_TRUE(both.gate_failed());
  ASSERT_EQ(both.moved_boundaries.size(), 1u) << render_diff(both);
  EXPECT_EQ(both.moved_boundaries[0].what, "observed first fail none -> 66");
  EXPECT_TRUE(both.boundaries_moved_by_race.empty());
}

TEST(BaselineDiff, NewFailureFailsAndNamesTheReplay) {
  std::vector<CsvRow> baseline{fixed_row(64), fixed_row(8192)};
  std::vector<CsvRow> current = baseline;
  current[1].set("oracle", "mismatch:12");
  current[1].set("verdict", "fail:mismatch");
  const BaselineDiff diff = diff_runs(baseline, current);
  EXPECT_TRUE(diff.gate_failed());
  ASSERT_EQ(diff.new_failures.size(), 1u);
  EXPECT_EQ(diff.new_failures[0].before, "pass");
  EXPECT_EQ(diff.new_failures[0].after, "fail:mismatch");
  const std::string text = render_diff(diff);
  EXPECT_NE(text.find("New failures (1)"), std::string::npos) << text;
  EXPECT_NE(text.find(current[1].get("replay")), std::string::npos) << text;
  EXPECT_NE(text.find("oracle mismatch:12"), std::string::npos) << text;
}

TEST(BaselineDiff, FailureOfACaseAbsentFromTheBaselineIsNew) {
  std::vector<CsvRow> baseline{fixed_row(64)};
  CsvRow added = fixed_row(100000);
  added.set("observed", "fault:CUDA_ERROR_ILLEGAL_ADDRESS");
  added.set("verdict", "fail:fault");
  const BaselineDiff diff = diff_runs(baseline, {fixed_row(64), added});
  ASSERT_EQ(diff.new_failures.size(), 1u);
  EXPECT_EQ(diff.new_failures[0].before, "absent");
  EXPECT_EQ(diff.added_cases.size(), 1u);
  EXPECT_TRUE(diff.gate_failed());
}

TEST(BaselineDiff, AFailureAlreadyInTheBaselineIsListedNotFailed) {
  CsvRow failing = fixed_row(8192);
  failing.set("verdict", "fail:mismatch");
  failing.set("oracle", "mismatch:3");
  const BaselineDiff diff = diff_runs({failing}, {failing});
  EXPECT_FALSE(diff.gate_failed()) << render_diff(diff);
  EXPECT_EQ(diff.still_failing.size(), 1u);
  // The same case failing in another way is new.
  CsvRow other = failing;
  other.set("verdict", "fail:unwritten");
  EXPECT_TRUE(diff_runs({failing}, {other}).gate_failed());
}

// A race (fail:nondeterministic: the self-check's two identical calls differ) is a failure: new
// when the baseline passed, still failing when the baseline had it. A baseline race that passes
// now is no fix (a race need not show in every run): listed as not seen, not as no longer failing,
// and the gate does not fail on it.
TEST(BaselineDiff, ARaceIsANewFailureAndARaceNotSeenIsNoFix) {
  CsvRow passing = fixed_row(4096);
  passing.set("oracle", "split:exact:0 unwritten:0 cpu:256/256 self:same");
  CsvRow race = fixed_row(4096);
  race.set("oracle", "split:exact:24 unwritten:0 cpu:250/256 self:differ:24");
  race.set("verdict", "fail:nondeterministic");

  const BaselineDiff appeared = diff_runs({passing}, {race});
  EXPECT_TRUE(appeared.gate_failed());
  ASSERT_EQ(appeared.new_failures.size(), 1u) << render_diff(appeared);
  EXPECT_EQ(appeared.new_failures[0].after, "fail:nondeterministic");
  const std::string text = render_diff(appeared);
  EXPECT_NE(text.find("pass -> fail:nondeterministic"), std::string::npos) << text;
  EXPECT_NE(text.find("self:differ:24"), std::string::npos) << text;

  const BaselineDiff again = diff_runs({race}, {race});
  EXPECT_FALSE(again.gate_failed()) << render_diff(again);
  EXPECT_EQ(again.still_failing.size(), 1u);

  const BaselineDiff hidden = diff_runs({race}, {passing});
  EXPECT_FALSE(hidden.gate_failed()) << render_diff(hidden);
  EXPECT_TRUE(hidden.no_longer_failing.empty());
  ASSERT_EQ(hidden.races_not_seen.size(), 1u);
  EXPECT_EQ(hidden.races_not_seen[0].before, "fail:nondeterministic");
  EXPECT_FALSE(hidden.same_cases_and_verdicts());
  EXPECT_NE(render_diff(hidden).find("Races not seen this time (fail:nondeterministic in the baseline; a race need not show in every run) (1)"), std::string::npos) << render_diff(hidden);

  // A mismatch the baseline had, now named a race: another failure kind, so new (rule 1).
  CsvRow mismatch = race;
  mismatch.set("oracle", "split:exact:24 unwritten:0 cpu:250/256");
  mismatch.set("verdict", "fail:mismatch");
  EXPECT_EQ(diff_runs({mismatch}, {race}).new_failures.size(), 1u);
}

TEST(BaselineDiff, UnexpectedPassFails) {
  CsvRow before = moe_vec_legacy_row(8192);
  CsvRow after = before;
  after.set("observed", "accept");
  after.set("verdict", "unexpected-pass");
  const BaselineDiff diff = diff_runs({before}, {after});
  EXPECT_TRUE(diff.gate_failed());
  ASSERT_EQ(diff.new_unexpected_passes.size(), 1u);
  EXPECT_EQ(diff.new_unexpected_passes[0].before, "expected-fail");
  EXPECT_NE(render_diff(diff).find("New unexpected passes (1)"), std::string::npos);
}

TEST(BaselineDiff, NoisyButEqualTimingsPass) {
  CsvRow before = fixed_row(64), after = fixed_row(64);
  set_timing(before, 1.00, 0.80, 1.30);
  set_timing(after, 1.04, 0.82, 1.45);
  const BaselineDiff diff = diff_runs({before}, {after});
  EXPECT_FALSE(diff.gate_failed()) << render_diff(diff);
  EXPECT_EQ(diff.timing_same, 1u);
  EXPECT_TRUE(diff.slower.empty());
}

TEST(BaselineDiff, RealTwentyPercentSlowDownFails) {
  CsvRow before = fixed_row(64), after = fixed_row(64);
  set_timing(before, 1.00, 0.98, 1.03);
  set_timing(after, 1.20, 1.17, 1.24);
  const BaselineDiff diff = diff_runs({before}, {after});
  EXPECT_TRUE(diff.gate_failed());
  ASSERT_EQ(diff.slower.size(), 1u);
  EXPECT_EQ(diff.slower[0].comparison.change, TimingChange::slower);
  const std::string text = render_diff(diff);
  EXPECT_NE(text.find("SLOWER"), std::string::npos) << text;
  EXPECT_NE(text.find("+20.0%"), std::string::npos) << text;
  // With a 25% threshold the same change is within it.
  DiffOptions loose;
  loose.timing.threshold = 0.25;
  EXPECT_FALSE(diff_runs({before}, {after}, loose).gate_failed());
}

// Rows of schema 1.7 carry their samples: one slow outlier in the baseline makes the ranges
// overlap (the interval test says UNSURE), the Mann-Whitney test of the samples still sees a
// 20% slow-down (p = 0.0027, scipy) and the gate fails, naming the test.
TEST(BaselineDiff, RowsWithRawSamplesAreJudgedByTheRankTest) {
  CsvRow before = fixed_row(64), after = fixed_row(64);
  set_timing(before, 1.00, 0.98, 1.60);
  before.set("time_samples_ms", "1 1.01 0.99 1.02 1 0.98 1.01 1 0.99 1.6");
  set_timing(after, 1.20, 1.18, 1.23);
  after.set("time_samples_ms", "1.2 1.21 1.19 1.22 1.2 1.18 1.21 1.2 1.19 1.23");
  const BaselineDiff diff = diff_runs({before}, {after});
  ASSERT_EQ(diff.slower.size(), 1u) << render_diff(diff);
  EXPECT_TRUE(diff.gate_failed());
  EXPECT_NE(render_diff(diff).find("Mann-Whitney U p=0.0027"), std::string::npos) << render_diff(diff);
  // The baseline of an older schema (no samples): the interval test, and it cannot tell.
  before.clear("time_samples_ms");
  const BaselineDiff old = diff_runs({before}, {after});
  EXPECT_EQ(old.unsure.size(), 1u) << render_diff(old);
  EXPECT_FALSE(old.gate_failed());
  EXPECT_NE(render_diff(old).find("interval test"), std::string::npos) << render_diff(old);
}

TEST(BaselineDiff, SpeedUpAndUnsureAreListedNotFailed) {
  CsvRow b1 = fixed_row(64), a1 = fixed_row(64), b2 = fixed_row(128), a2 = fixed_row(128);
  set_timing(b1, 1.00, 0.98, 1.03);
  set_timing(a1, 0.70, 0.69, 0.72);
  set_timing(b2, 1.00, 0.70, 1.60);
  set_timing(a2, 1.30, 0.90, 1.80);
  const BaselineDiff diff = diff_runs({b1, b2}, {a1, a2});
  EXPECT_FALSE(diff.gate_failed()) << render_diff(diff);
  EXPECT_EQ(diff.faster.size(), 1u);
  EXPECT_EQ(diff.unsure.size(), 1u);
}

// Added and removed kernels and cases are listed; a removed kernel x variant of a family the run
// still has fails the coverage rule (no matched case), unless the run is a shard (partial).
TEST(BaselineDiff, AddedAndRemovedKernelsAndCasesAreListed) {
  CsvRow gone = make_row("gguf.quantize_q8_1", "legacy", {{"rows", "64"}});
  CsvRow added = make_row("affine.qmm", "fixed", {{"tokens", "16"}, {"vocab", "32000"}});
  const BaselineDiff diff = diff_runs({fixed_row(64), gone}, {fixed_row(64), added});
  ASSERT_EQ(diff.unmatched_targets().size(), 1u) << render_diff(diff);
  EXPECT_EQ(diff.unmatched_targets()[0].kernel + " " + diff.unmatched_targets()[0].variant,
            "gguf.quantize_q8_1 legacy");
  EXPECT_TRUE(diff.gate_failed());
  DiffOptions shard;
  shard.partial = true;
  EXPECT_FALSE(diff_runs({fixed_row(64), gone}, {fixed_row(64), added}, shard).gate_failed())
      << "an added kernel alone does not fail the gate";
  ASSERT_EQ(diff.added_kernels.size(), 1u);
  EXPECT_EQ(diff.added_kernels[0], "affine.qmm fixed");
  ASSERT_EQ(diff.removed_kernels.size(), 1u);
  EXPECT_EQ(diff.removed_kernels[0], "gguf.quantize_q8_1 legacy");
  EXPECT_EQ(diff.added_cases.size(), 1u);
  EXPECT_EQ(diff.removed_cases.size(), 1u);
}

TEST(BaselineDiff, RowsMatchByDeviceAndCaseId) {
  CsvRow h200 = fixed_row(64);
  CsvRow a100 = h200;
  a100.set("device", "NVIDIA A100");
  a100.set("verdict", "fail:mismatch");
  // The failing A100 row is not the H200 case: it is a new case that fails.
  const BaselineDiff diff = diff_runs({h200}, {h200, a100});
  EXPECT_EQ(diff.matched_cases, 1u);
  ASSERT_EQ(diff.new_failures.size(), 1u);
  EXPECT_EQ(diff.new_failures[0].device, "NVIDIA A100");
  // And the runs cover other devices: the gate cannot vouch for either.
  ASSERT_TRUE(diff.incomparable().has_value());
  EXPECT_NE(diff.incomparable()->find("different devices"), std::string::npos) << *diff.incomparable();
}

TEST(BaselineDiff, RunsOfAnotherDeviceOrCcAreIncomparable) {
  const auto baseline = legacy_boundary_run();
  auto preset = legacy_boundary_run(), other_cc = legacy_boundary_run();
  for (auto& row : preset) row.set("device", "preset:sm_90");
  for (auto& row : other_cc) row.set("cc", "8.0");
  for (const auto& current : {preset, other_cc}) {
    const BaselineDiff diff = diff_runs(baseline, current);
    ASSERT_TRUE(diff.incomparable().has_value()) << render_diff(diff);
    const std::string text = render_diff(diff);
    EXPECT_EQ(text.rfind("gate: NOT RUN (cannot compare: the runs are of different devices", 0), 0u) << text;
    EXPECT_EQ(text.find("passed"), std::string::npos) << text;
  }
  EXPECT_FALSE(diff_runs(baseline, baseline).incomparable().has_value());
}

TEST(BaselineDiff, NoCaseInCommonIsIncomparable) {
  const BaselineDiff diff = diff_runs(legacy_boundary_run(), {fixed_row(64)});
  EXPECT_FALSE(diff.gate_failed());
  ASSERT_TRUE(diff.incomparable().has_value());
  EXPECT_NE(diff.incomparable()->find("no case matched"), std::string::npos);
  EXPECT_EQ(render_diff(diff).find("gate: passed"), std::string::npos) << render_diff(diff);
  EXPECT_TRUE(diff_runs({}, {}).incomparable().has_value()) << "two empty runs compare nothing";
}

}  // namespace
}  // namespace gridfuzz::reports
