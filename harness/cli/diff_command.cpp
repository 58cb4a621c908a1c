// `gridfuzz diff BASELINE CURRENT`: the nightly gate. Exit 0 when it passes, 1 when it fails (a
// new failure, model-mismatch or unexpected-pass, a moved boundary, a significant slow-down;
// the list is printed), 2 when the CSVs cannot be compared (missing, corrupt, another schema
// major version, a missing column). docs/REPORTS.md states the rules.
#include <cmath>
#include <iostream>

#include "commands.hpp"
#include "gridfuzz/reports/baseline_diff.hpp"
#include "gridfuzz/reports/row_set.hpp"
#include "parse.hpp"

namespace gridfuzz::cli {
namespace {

struct DiffArgs {
  std::string baseline, current;
  std::string threshold = "10%";
  double min_delta_ms = 0.02;
  std::size_t max_listed = 50;
  bool same_verdicts = false;
};

// "10%" or "0.1" -> 0.1. A bare number above 1 is refused: 10 could mean 10% or 1000%.
double parse_threshold(const std::string& text) {
  std::string number = text;
  const bool percent = !number.empty() && number.back() == '%';
  if (percent) number.pop_back();
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(number, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (number.empty() || used != number.size() || !(value >= 0) || !std::isfinite(value))
    throw UsageError("--threshold '" + text + "' is not a number (e.g. 10% or 0.1)");
  if (percent) value /= 100;
  if (!percent && value > 1)
    throw UsageError("--threshold '" + text + "' is ambiguous: write 10% or 0.1");
  return value;
}

}  // namespace

Runner add_diff_command(CLI::App& app, const GlobalOptions&) {
  auto a = std::make_shared<DiffArgs>();
  auto* cmd = app.add_subcommand("diff", "compare a run with a baseline CSV: exit 1 on a new failure, a moved "
                                         "boundary or a significant slow-down, 2 when they cannot be compared");
  cmd->add_option("baseline", a->baseline, "the committed baseline CSV (docs/baselines/<device>.csv)")->required();
  cmd->add_option("current", a->current, "the CSV of this run")->required();
  cmd->add_option("--threshold", a->threshold,
                  "relative change of a median time that can count as slower or faster (default 10%)");
  cmd->add_option("--min-delta-ms", a->min_delta_ms,
                  "timing changes smaller than this many ms are SAME (default 0.02: launch jitter)")
      ->check(finite_number(0));
  cmd->add_option("--max-listed", a->max_listed, "entries printed per list (default 50)")->check(whole_number(1u << 30));
  cmd->add_flag("--same-verdicts", a->same_verdicts,
                "also exit 1 unless both runs have the same cases with the same verdicts (timings aside): "
                "two runs of one sweep, e.g. on one GPU and on several, must agree");
  return [a]() -> int {
    reports::DiffOptions options;
    options.timing.threshold = parse_threshold(a->threshold);
    options.timing.min_delta_ms = a->min_delta_ms;
    reports::RowSet baseline, current;
    try {
      baseline = reports::load_row_set({a->baseline});
      current = reports::load_row_set({a->current});
    } catch (const reports::CsvError& e) {
      std::cerr << "gridfuzz diff: cannot compare: " << e.what() << "\n";
      return kUsage;
    }
    for (const auto& note : baseline.notes) std::cout << "note (baseline): " << note << "\n";
    for (const auto& note : current.notes) std::cout << "note (current): " << note << "\n";
    const reports::BaselineDiff diff = reports::diff_runs(baseline.rows, current.rows, options);
    std::cout << "gridfuzz diff " << a->baseline << " " << a->current << "\n"
              << reports::render_diff(diff, a->max_listed);
    if (a->same_verdicts) {
      const bool same = diff.same_cases_and_verdicts();
      std::cout << "\nsame verdicts: "
                << (same ? "yes, " + std::to_string(diff.matched_cases) + " case(s)"
                         : "NO (" + std::to_string(diff.added_cases.size()) + " added, " +
                               std::to_string(diff.removed_cases.size()) + " removed, verdict changes listed above)")
                << "\n";
      if (!same) return kFound;
    }
    return diff.gate_failed() ? kFound : kOk;
  };
}

}  // namespace gridfuzz::cli
