#pragma once
// `gridfuzz diff`: a current run against a committed baseline. Rows are matched by device and
// case_id. The gate fails on a new failure, a new model-mismatch, a new unexpected-pass, a moved
// boundary, a significant slow-down, or too little of the baseline covered (a kernel x variant
// with no matched case, a kernel family with no row, a matched share under --min-coverage);
// everything else is listed for information. Two runs of
// different devices, or with no case in common, cannot be compared at all: the gate neither passes
// nor fails then (`incomparable()`). docs/REPORTS.md, "The gate", states the rules.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gridfuzz/reports/boundary_table.hpp"
#include "gridfuzz/reports/csv_row.hpp"
#include "gridfuzz/reports/known_races.hpp"
#include "gridfuzz/reports/row_source.hpp"
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
  std::string what;  // "predicted first fail 8192 -> 8193; observed first fail 8192 -> none" (boundary_compare.hpp)
};

struct TimedCase {
  std::string device, kernel, variant, replay;
  TimingSamples before, after;
  TimingComparison comparison;
};

// How much of one baseline kernel x variant the run matched: its baseline cases (by device and
// case_id, each once) and how many of them the run has.
struct TargetCoverage {
  std::string kernel, variant;
  std::size_t matched = 0, total = 0;
  // Not counted in the coverage rules: its family is allowed missing (--allow-missing), or the
  // run is partial (a shard) and has no row of it.
  bool out_of_scope = false;
};

// A kernel family (the kernel name before its first '.', e.g. "mlx") of the baseline of which
// the run has no row at all: left out of the build, or not run.
struct MissingFamily {
  std::string family;
  std::size_t cases = 0, targets = 0;  // the baseline's
  bool allowed = false;                // named by --allow-missing
};

struct BaselineDiff {
  // Gate failures.
  std::vector<CaseChange> new_failures;          // fail:* now; before: not this verdict, or absent
  std::vector<CaseChange> new_model_mismatches;
  std::vector<CaseChange> new_unexpected_passes;
  std::vector<BoundaryMove> moved_boundaries;
  std::vector<TimedCase> slower;
  // Coverage: every kernel x variant of the baseline (sorted), the families missing from the run
  // (allowed or not), and the share of the baseline's cases in scope that the run matched.
  std::vector<TargetCoverage> coverage;
  std::vector<MissingFamily> missing_families;
  std::size_t covered_cases = 0, coverage_total = 0;  // in scope
  double min_coverage = 0;                            // percent, 0..100
  bool partial = false;

  // Information.
  std::vector<CaseChange> still_failing;   // the same failing verdict in the baseline
  std::vector<CaseChange> no_longer_failing;
  // fail:nondeterministic in the baseline, not failing now: a race need not show in every run, so
  // this is no fix (and not listed as one) until the case stays clean.
  std::vector<CaseChange> races_not_seen;
  std::vector<CaseChange> other_changes;   // e.g. pass -> skipped, static -> pass
  std::vector<TimedCase> faster, unsure;
  std::size_t timing_same = 0, timing_not_compared = 0;  // not_compared: untimed in either run
  std::vector<std::string> added_kernels, removed_kernels;  // "kernel variant" (device)
  std::vector<CaseChange> added_cases, removed_cases;
  std::vector<BoundaryLine> boundaries_only_in_baseline, boundaries_only_in_current;
  // Lines both runs have whose boundaries differ, but not over the points both runs judged: a
  // deciding case is in one run only (a time budget stopped the other short). Neither moved nor
  // confirmed: coverage.
  std::vector<BoundaryMove> boundaries_not_reached;
  // Lines whose boundary moved only through the rows of a known race (KnownRaces): a race need
  // not show in every run, so this is that race, not a move.
  std::vector<BoundaryMove> boundaries_moved_by_race;
  std::size_t boundary_lines_in_both = 0;
  std::size_t matched_cases = 0;
  std::size_t baseline_rows = 0, current_rows = 0;
  // The devices of each run's rows, "<device> (cc <cc>)", sorted, each once.
  std::vector<std::string> baseline_devices, current_devices;
  // The distinct `commit` values of each run's rows, sorted ("" for rows built outside git).
  std::vector<std::string> baseline_commits, current_commits;
  double threshold = 0.10;

  // The coverage findings that fail the gate.
  std::vector<TargetCoverage> unmatched_targets() const;  // in scope, none matched, family present
  std::vector<MissingFamily> missing_families_failing() const;
  bool coverage_below_minimum() const {
    return coverage_total > 0 && 100.0 * static_cast<double>(covered_cases) <
                                     min_coverage * static_cast<double>(coverage_total);
  }
  std::size_t coverage_problems() const {
    if (incomparable()) return 0;  // nothing was compared: the gate is not run, neither passed nor failed
    return unmatched_targets().size() + missing_families_failing().size() + (coverage_below_minimum() ? 1 : 0);
  }

  // Why the two runs cannot be compared, or nothing: their rows are of different devices (device
  // or cc), or no case matched. A gate over such runs would pass on nothing (e.g. a static run,
  // or a run on another GPU, against a baseline), so it is not run at all.
  std::optional<std::string> incomparable() const;

  // The same cases with the same verdicts and boundaries, timings aside: what two runs of one
  // sweep must show (e.g. on one GPU and on several).
  bool same_cases_and_verdicts() const {
    return new_failures.empty() && new_model_mismatches.empty() && new_unexpected_passes.empty() &&
           moved_boundaries.empty() && no_longer_failing.empty() && races_not_seen.empty() && other_changes.empty() &&
           added_cases.empty() &&
           removed_cases.empty();
  }

  bool gate_failed() const {
    return !new_failures.empty() || !new_model_mismatches.empty() || !new_unexpected_passes.empty() ||
           !moved_boundaries.empty() || !slower.empty() || coverage_problems() > 0;
  }
};

struct DiffOptions {
  TimingOptions timing;
  // The least share of the baseline's cases (in scope) the run must match, in percent.
  double min_coverage = 0;
  // Kernel families the run may lack entirely (e.g. "mlx" where its sources are not built).
  std::vector<std::string> allow_missing;
  // The run is one part of the baseline's plan (a shard): only the kernel x variants it has rows
  // of are in scope, and a family without rows is not missing.
  bool partial = false;
  // The races the ledger names: boundaries that only their rows move are not moves.
  KnownRaces known_races;
  // Shown each row of the current run as the diff reads it (the ledger's findings, LedgerMatcher),
  // so that a large run is not read once more for them.
  std::function<void(const CsvRow&)> each_current_row;
};

// The kernel family of a kernel name: the part before the first '.' ("mlx.qmm" -> "mlx").
std::string kernel_family(const std::string& kernel);

// "a, b, c and 2 more": up to three commits of a run, "(none)" for a commit column left empty.
std::string commits_text(const std::vector<std::string>& commits);

// Reads each run once in order (RowSource::visit), keeping the rows' facts (row_facts.hpp) and a
// verdict a row, not the rows; a baseline row is read again by position where its text or timing
// is needed (a listed change, a timed case, a removed case).
BaselineDiff diff_runs(const RowSource& baseline, const RowSource& current, const DiffOptions& options = {});
// The same of rows in memory, each run's rows merged by device and case_id first (merge_rows).
BaselineDiff diff_runs(const std::vector<CsvRow>& baseline, const std::vector<CsvRow>& current,
                       const DiffOptions& options = {});

// The readable list: the verdict line, the commits, the gate failures, the coverage table, then
// the information.
// `max_listed` bounds each list (the rest is counted). For runs that cannot be compared: the
// line "gate: NOT RUN (cannot compare: ...)" and the devices and counts, never "gate: passed".
std::string render_diff(const BaselineDiff& diff, std::size_t max_listed = 50);

}  // namespace gridfuzz::reports
