// `gridfuzz diff BASELINE CURRENT`: the nightly gate. Exit 0 when it passes, 1 when it fails (a
// new failure, model-mismatch or unexpected-pass, a moved boundary, a significant slow-down;
// too little of the baseline matched: a kernel x variant with no matched case, a kernel family
// with no row unless --allow-missing names it, a matched share under --min-coverage; the list is
// printed), 2 when the CSVs cannot be compared (missing, corrupt, another schema
// major version, a missing column; rows of different devices; no case in common).
// docs/REPORTS.md states the rules. --json prints the result as JSON instead of text; --junit
// FILE also writes the gate's findings as JUnit XML.
#include <charconv>
#include <cmath>
#include <iostream>
#include <optional>

#include "gridfuzz/app/commands.hpp"
#include "gridfuzz/reports/baseline_diff.hpp"
#include "gridfuzz/reports/junit.hpp"
#include "gridfuzz/reports/ledger_matches.hpp"
#include "gridfuzz/reports/row_files.hpp"
#include "gridfuzz/reports/text_escape.hpp"
#include "gridfuzz/app/json_writer.hpp"
#include "gridfuzz/app/ledger_file.hpp"
#include "gridfuzz/app/parse.hpp"
#include "gridfuzz/core/output_file.hpp"

namespace gridfuzz::app {
namespace {

struct DiffArgs {
  std::string baseline, current;
  std::string threshold = "10%";
  double min_delta_ms = 0.02;
  double alpha = 0.05;
  std::size_t max_listed = 50;
  bool same_verdicts = false;
  bool json = false;
  std::string junit;
  std::string min_coverage = "0";
  std::vector<std::string> allow_missing;
  bool partial = false;
  std::string ledger;
};

// "95" or "95%" -> 95: a percent of the baseline's cases, 0 to 100 (decimal, as every numeric
// option).
double parse_min_coverage(const std::string& text) {
  std::string number = text;
  if (!number.empty() && number.back() == '%') number.pop_back();
  double value = 0;
  const char* end = number.data() + number.size();
  const auto [ptr, ec] = std::from_chars(number.data(), end, value);
  if (number.empty() || ec != std::errc() || ptr != end || !(value >= 0 && value <= 100))
    throw UsageError("--min-coverage '" + text + "' is not a percent from 0 to 100 (e.g. 95 or 95%)");
  return value;
}

// --allow-missing names a kernel family: the part of a kernel name before its first '.'.
std::vector<std::string> parse_families(const std::vector<std::string>& names) {
  for (const std::string& name : names)
    if (name.empty() || name.find('.') != std::string::npos)
      throw UsageError("--allow-missing '" + name + "' is not a kernel family (the part of a kernel name before "
                       "its first '.', e.g. mlx)");
  return names;
}

void write_case(JsonWriter& j, const reports::CaseChange& c) {
  j.begin_object()
      .field("device", c.device)
      .field("kernel", c.kernel)
      .field("variant", c.variant)
      .field("replay", c.replay)
      .field("before", c.before)
      .field("after", c.after)
      .field("detail", c.detail)
      .end_object();
}

void write_samples(JsonWriter& j, const reports::TimingSamples& t) {
  j.begin_object()
      .field("median_ms", t.median_ms)
      .field("min_ms", t.min_ms)
      .field("max_ms", t.max_ms)
      .field("samples", static_cast<long long>(t.samples))
      .end_object();
}

void write_timed(JsonWriter& j, const reports::TimedCase& t) {
  j.begin_object()
      .field("device", t.device)
      .field("kernel", t.kernel)
      .field("variant", t.variant)
      .field("replay", t.replay);
  j.key("before");
  write_samples(j, t.before);
  j.key("after");
  write_samples(j, t.after);
  j.field("change", std::string(reports::to_string(t.comparison.change)))
      .field("relative", t.comparison.relative)
      .field("reason", t.comparison.reason);
  j.field("test", std::string(t.comparison.test == reports::NoiseTest::mann_whitney ? "mann-whitney"
                              : t.comparison.test == reports::NoiseTest::interval   ? "interval"
                                                                                    : "none"));
  j.key("p_value");
  if (t.comparison.p_value)
    j.value(*t.comparison.p_value);
  else
    j.null();
  j.end_object();
}

void write_first_fail(JsonWriter& j, const std::optional<std::int64_t>& v) {
  if (v)
    j.value(static_cast<long long>(*v));
  else
    j.null();
}

void write_line(JsonWriter& j, const reports::BoundaryLine& b) {
  j.begin_object()
      .field("device", b.device)
      .field("kernel", b.kernel)
      .field("variant", b.variant)
      .field("axis", b.axis)
      .field("along", b.along);
  j.key("predicted_first_fail");
  write_first_fail(j, b.predicted.first_fail);
  j.key("observed_first_fail");
  if (b.observed)
    write_first_fail(j, b.observed->first_fail);
  else
    j.null();
  j.end_object();
}

template <typename List, typename Write>
void write_list(JsonWriter& j, const char* name, const List& items, Write write) {
  j.key(name).begin_array();
  for (const auto& item : items) write(j, item);
  j.end_array();
}

// The whole comparison as one JSON object; "gate" is "passed", "failed" or "not-run" (with
// "reason"), "exit_code" what the command returns.
std::string diff_json(const DiffArgs& a, const reports::BaselineDiff& diff, int exit_code,
                      const std::vector<std::string>& ledger_unmatched) {
  JsonWriter j;
  j.begin_object();
  const auto why = diff.incomparable();
  j.field("gate", why ? "not-run" : diff.gate_failed() ? "failed" : "passed");
  if (why) j.field("reason", *why);
  j.field("exit_code", exit_code);
  j.key("baseline").begin_object().field("path", a.baseline).field("rows", diff.baseline_rows);
  j.field("devices", diff.baseline_devices).end_object();
  j.key("current").begin_object().field("path", a.current).field("rows", diff.current_rows);
  j.field("devices", diff.current_devices).end_object();
  j.field("matched_cases", diff.matched_cases).field("threshold", diff.threshold);
  j.field("baseline_commits", diff.baseline_commits).field("current_commits", diff.current_commits);
  if (a.same_verdicts) j.field("same_verdicts", !why && diff.same_cases_and_verdicts());
  j.field("ledger_unmatched", ledger_unmatched);
  if (!why) {
    const auto write_line_item = [](JsonWriter& w, const reports::BoundaryLine& b) { write_line(w, b); };
    const auto write_move = [](JsonWriter& w, const reports::BoundaryMove& m) {
      w.begin_object().field("what", m.what);
      w.key("before");
      write_line(w, m.before);
      w.key("after");
      write_line(w, m.after);
      w.end_object();
    };
    write_list(j, "new_failures", diff.new_failures, write_case);
    write_list(j, "new_model_mismatches", diff.new_model_mismatches, write_case);
    write_list(j, "new_unexpected_passes", diff.new_unexpected_passes, write_case);
    write_list(j, "moved_boundaries", diff.moved_boundaries, write_move);
    write_list(j, "slower", diff.slower, write_timed);
    write_list(j, "still_failing", diff.still_failing, write_case);
    write_list(j, "no_longer_failing", diff.no_longer_failing, write_case);
    write_list(j, "races_not_seen", diff.races_not_seen, write_case);
    write_list(j, "other_changes", diff.other_changes, write_case);
    write_list(j, "faster", diff.faster, write_timed);
    write_list(j, "unsure", diff.unsure, write_timed);
    j.field("timing_same", diff.timing_same).field("timing_not_compared", diff.timing_not_compared);
    j.key("coverage").begin_object().field("matched", diff.covered_cases).field("total", diff.coverage_total);
    j.field("min_coverage", diff.min_coverage).field("partial", diff.partial);
    write_list(j, "targets", diff.coverage, [](JsonWriter& w, const reports::TargetCoverage& t) {
      w.begin_object().field("kernel", t.kernel).field("variant", t.variant).field("matched", t.matched);
      w.field("total", t.total).field("counted", !t.out_of_scope).end_object();
    });
    write_list(j, "missing_families", diff.missing_families, [](JsonWriter& w, const reports::MissingFamily& f) {
      w.begin_object().field("family", f.family).field("cases", f.cases).field("targets", f.targets);
      w.field("allowed", f.allowed).end_object();
    });
    j.field("below_minimum", diff.coverage_below_minimum()).end_object();
    j.field("added_kernels", diff.added_kernels).field("removed_kernels", diff.removed_kernels);
    write_list(j, "added_cases", diff.added_cases, write_case);
    write_list(j, "removed_cases", diff.removed_cases, write_case);
    write_list(j, "boundaries_not_reached", diff.boundaries_not_reached, write_move);
    write_list(j, "boundaries_moved_by_race", diff.boundaries_moved_by_race, write_move);
    j.field("boundary_lines_in_both", diff.boundary_lines_in_both);
    write_list(j, "boundaries_only_in_baseline", diff.boundaries_only_in_baseline, write_line_item);
    write_list(j, "boundaries_only_in_current", diff.boundaries_only_in_current, write_line_item);
  }
  j.end_object();
  return j.str();
}

// --junit FILE: a JUnit file gridfuzz wrote may be replaced, never the CSVs compared or a file of
// another kind.
OutputFile junit_output(const DiffArgs& a) {
  return OutputFile{a.junit, "--junit", "a JUnit XML file", reports::is_gridfuzz_junit,
                    {{"the baseline", a.baseline}, {"the current CSV", a.current}}};
}

}  // namespace

Runner add_diff_command(CLI::App& app, const GlobalOptions&) {
  auto a = std::make_shared<DiffArgs>();
  auto* cmd = app.add_subcommand("diff", "compare a run with a baseline CSV: exit 1 on a new failure, a moved "
                                         "boundary or a significant slow-down, 2 when they cannot be compared");
  cmd->add_option("baseline", a->baseline, "the committed baseline CSV (baselines/<device>.csv)")->required();
  cmd->add_option("current", a->current, "the CSV of this run")->required();
  cmd->add_option("--threshold", a->threshold,
                  "relative change of a median time that can count as slower or faster (default 10%)");
  cmd->add_option("--min-delta-ms", a->min_delta_ms,
                  "timing changes smaller than this many ms are SAME (default 0.02: launch jitter)")
      ->check(finite_number(0));
  cmd->add_option("--alpha", a->alpha,
                  "the Mann-Whitney U test's level for rows with raw samples (schema 1.7): a change beyond the "
                  "threshold with p >= alpha is UNSURE (default 0.05)")
      ->check(share_of_one());
  cmd->add_option("--max-listed", a->max_listed, "entries printed per list (default 50)")->check(whole_number(1u << 30));
  cmd->add_flag("--same-verdicts", a->same_verdicts,
                "also exit 1 unless both runs have the same cases with the same verdicts (timings aside): "
                "two runs of one sweep, e.g. on one GPU and on several, must agree");
  cmd->add_option("--min-coverage", a->min_coverage,
                  "exit 1 when the run matched less than this percent of the baseline's cases (default 0: "
                  "scripts/nightly passes 95 for the whole plan)");
  cmd->add_option("--allow-missing", a->allow_missing,
                  "a kernel family (e.g. mlx) the run may lack entirely, left out of the coverage rules; "
                  "repeatable or a comma list")
      ->delimiter(',');
  cmd->add_flag("--partial", a->partial,
                "the run is one shard of the baseline's plan: coverage counts only the kernel x variants "
                "it has rows of, and no family is missing");
  cmd->add_option("--ledger", a->ledger,
                  "the known-failure ledger whose findings the current run should match (default: "
                  "properties/known-failures.txt); an entry it reached but none matched is said (exit code unchanged)");
  cmd->add_flag("--json", a->json, "print the comparison as one JSON object instead of text (the exit code is the same)");
  cmd->add_option("--junit", a->junit,
                  "also write the gate's findings as JUnit XML to this file: one failing testcase per new failure, "
                  "moved boundary or slow-down, or one passing testcase");
  return [a]() -> int {
    reports::DiffOptions options;
    options.timing.threshold = parse_threshold(a->threshold);
    options.timing.min_delta_ms = a->min_delta_ms;
    options.timing.alpha = a->alpha;
    options.min_coverage = parse_min_coverage(a->min_coverage);
    options.allow_missing = parse_families(a->allow_missing);
    options.partial = a->partial;
    if (!a->junit.empty()) check_output_file(junit_output(*a));
    // The rows stay in the files (row_files.hpp): each run is merged in a first read, visited in
    // a second, and read again where a row's text is shown.
    std::optional<reports::RowFiles> baseline, current;
    try {
      baseline.emplace(reports::RowFiles::load({a->baseline}));
      current.emplace(reports::RowFiles::load({a->current}));
    } catch (const reports::CsvError& e) {
      std::cerr << "gridfuzz diff: cannot compare: " << reports::terminal_text(e.what()) << "\n";
      return e.is_io() ? kEnvironment : kUsage;
    }
    const LedgerFile ledger = load_ledger_file(a->ledger);  // a bad entry: exit 2 before anything is written
    options.known_races = reports::KnownRaces(ledger.ledger);
    reports::LedgerMatcher matcher(ledger.ledger);
    options.each_current_row = [&](const reports::CsvRow& row) { matcher.add(row); };
    for (const auto& note : baseline->notes()) std::cerr << "note (baseline): " << reports::terminal_text(note) << "\n";
    for (const auto& note : current->notes()) std::cerr << "note (current): " << reports::terminal_text(note) << "\n";
    const reports::BaselineDiff diff = reports::diff_runs(*baseline, *current, options);
    const std::vector<std::string> unmatched = reports::unmatched_entries(matcher.matches(), ledger.path);
    const auto why = diff.incomparable();
    const bool same = !why && diff.same_cases_and_verdicts();
    const int code = why ? kUsage : diff.gate_failed() || (a->same_verdicts && !same) ? kFound : kOk;
    if (!a->junit.empty()) write_output_file(junit_output(*a), reports::render_gate_junit(diff));
    if (a->json) {
      std::cout << diff_json(*a, diff, code, unmatched);
    } else {
      std::cout << "gridfuzz diff " << reports::terminal_text(a->baseline) << " " << reports::terminal_text(a->current)
                << "\n"
                << reports::terminal_lines(reports::render_diff(diff, a->max_listed));
      if (const std::string line = reports::unmatched_line(matcher.matches(), ledger.path); !line.empty())
        std::cout << "\n" << reports::terminal_text(line) << "\n";
      if (a->same_verdicts && !why)
        std::cout << "\nsame verdicts: "
                  << (same ? "yes, " + std::to_string(diff.matched_cases) + " case(s)"
                           : "NO (" + std::to_string(diff.added_cases.size()) + " added, " +
                                 std::to_string(diff.removed_cases.size()) + " removed, verdict changes listed above)")
                  << "\n";
    }
    if (why) std::cerr << "gridfuzz diff: cannot compare: " << reports::terminal_text(*why) << "\n";
    return code;
  };
}

}  // namespace gridfuzz::app
