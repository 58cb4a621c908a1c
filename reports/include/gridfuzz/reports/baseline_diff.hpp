#pragma once
// `gridfuzz diff`: a current run against a committed baseline. Rows are matched by device and
// case_id. The gate fails on a new failure, a new model-mismatch, a new unexpected-pass, a moved
// boundary or a significant slow-down; everything else is listed for information. Two runs of
// different devices, or with no case in common, cannot be compared at all: the gate neither passes
// nor fails then (`incomparable()`). docs/REPORTS.md, "The gate", states the rules.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "gridfuzz/reports/boundary_table.hpp"
#include "gridfuzz/reports/csv_row.hpp"
#include "gridfuzz/reports/timing_compare.hpp"

namespace gridfuzz::reports {

// One case in both runs (or only in the current one: `before` is "absent").
struct CaseChange {
  std::string device, kernel, variant, replay;
  std::string before, after;  // verdicts
  std::string detail;         // observed / oracle / predicted of the current row
};

struct BoundaryMove {
  BoundaryLine before, after;
  std::string what;  // "predicted first fail 8192 -> 8193; observed first fail 8192 -> none"
};

struct TimedCase {
  std::string device, kernel, variant, replay;
  TimingSamples before, after;
  TimingComparison comparison;
};

struct BaselineDiff {
  // Gate failures.
  std::vector<CaseChange> new_failures;          // fail:* now; before: not this verdict, or absent
  std::vector<CaseChange> new_model_mismatches;
  std::vector<CaseChange> new_unexpected_passes;
  std::vector<BoundaryMove> moved_boundaries;
  std::vector<TimedCase> slower;

  // Information.
  std::vector<CaseChange> still_failing;   // the same failing verdict in the baseline
  std::vector<CaseChange> no_longer_failing;
  std::vector<CaseChange> other_changes;   // e.g. pass -> skipped, static -> pass
  std::vector<TimedCase> faster, unsure;
  std::size_t timing_same = 0, timing_not_compared = 0;  // not_compared: untimed in either run
  std::vector<std::string> added_kernels, removed_kernels;  // "kernel variant" (device)
  std::vector<CaseChange> added_cases, removed_cases;
  std::vector<BoundaryLine> boundaries_only_in_baseline, boundaries_only_in_current;
  // A line both runs have, where one run found a boundary at a value the other never judged (a
  // time budget stopped it short): neither moved nor confirmed.
  std::vector<BoundaryMove> boundaries_not_reached;
  std::size_t matched_cases = 0;
  std::size_t baseline_rows = 0, current_rows = 0;
  // The devices of each run's rows, "<device> (cc <cc>)", sorted, each once.
  std::vector<std::string> baseline_devices, current_devices;
  double threshold = 0.10;

  // Why the two runs cannot be compared, or nothing: their rows are of different devices (device
  // or cc), or no case matched. A gate over such runs would pass on nothing (e.g. a static run,
  // or a run on another GPU, against a baseline), so it is not run at all.
  std::optional<std::string> incomparable() const;

  // The same cases with the same verdicts and boundaries, timings aside: what two runs of one
  // sweep must show (e.g. on one GPU and on several).
  bool same_cases_and_verdicts() const {
    return new_failures.empty() && new_model_mismatches.empty() && new_unexpected_passes.empty() &&
           moved_boundaries.empty() && no_longer_failing.empty() && other_changes.empty() && added_cases.empty() &&
           removed_cases.empty();
  }

  bool gate_failed() const {
    return !new_failures.empty() || !new_model_mismatches.empty() || !new_unexpected_passes.empty() ||
           !moved_boundaries.empty() || !slower.empty();
  }
};

struct DiffOptions {
  TimingOptions timing;
};

BaselineDiff diff_runs(const std::vector<CsvRow>& baseline, const std::vector<CsvRow>& current,
                       const DiffOptions& options = {});

// The readable list: the verdict line, then the gate failures, then the information.
// `max_listed` bounds each list (the rest is counted). For runs that cannot be compared: the
// line "gate: NOT RUN (cannot compare: ...)" and the devices and counts, never "gate: passed".
std::string render_diff(const BaselineDiff& diff, std::size_t max_listed = 50);

}  // namespace gridfuzz::reports
