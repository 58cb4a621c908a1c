#include "gridfuzz/reports/baseline_diff.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "gridfuzz/core/vocabulary.hpp"
#include "gridfuzz/reports/boundary_compare.hpp"
#include "gridfuzz/reports/case_outcome.hpp"
#include "gridfuzz/reports/number_format.hpp"
#include "gridfuzz/reports/row_facts.hpp"
#include "gridfuzz/reports/row_set.hpp"

namespace gridfuzz::reports {
namespace {

CaseChange change_of(const CsvRow& row, std::string before) {
  CaseChange c;
  c.device = row.get("device");
  c.kernel = row.get("kernel");
  c.variant = row.get("variant");
  c.replay = row.get("replay");
  c.before = std::move(before);
  c.after = row.get("verdict");
  c.detail = "predicted " + row.get("predicted") + ", observed " + observed_text(row);
  return c;
}

// A current row failing, whose baseline row did not fail the same way (or did not exist).
void record_new_failure(BaselineDiff& diff, const CsvRow& row, CaseChange change) {
  if (row.outcome().verdict_is(Verdict::Kind::model_mismatch))
    diff.new_model_mismatches.push_back(std::move(change));
  else if (row.outcome().verdict_is(Verdict::Kind::unexpected_pass))
    diff.new_unexpected_passes.push_back(std::move(change));
  else
    diff.new_failures.push_back(std::move(change));
}

std::string value_text(const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : "none"; }

std::string line_name(const BoundaryLine& b) {
  return b.device + "  " + b.kernel + " " + b.variant + "  " + b.axis + " (along " + b.along + ")";
}

std::string joined(const std::vector<std::string>& items) {
  if (items.empty()) return "no rows";
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// What the diff keeps of one run's rows besides their facts: the verdict of each (a byte), and its
// devices, commits and kernel x variants.
struct RunSide {
  explicit RunSide(const KnownRaces& races) : facts(races) {}
  RowFacts facts;
  std::vector<std::uint8_t> verdicts;  // verdict_byte, by position
  std::set<std::string> devices, commits, kernels, families;
  std::set<std::pair<std::string, std::string>> targets;  // kernel, variant

  void add(const CsvRow& row) {
    facts.add(row);
    verdicts.push_back(verdict_byte(row.outcome().verdict));
    devices.insert(row.get("device") + " (cc " + row.get("cc") + ")");
    commits.insert(row.get("commit"));
    const std::string kernel = row.get("kernel"), variant = row.get("variant");
    kernels.insert(kernel + " " + variant);
    families.insert(kernel_family(kernel));
    targets.insert({kernel, variant});
  }
};

// Every kernel x variant of the baseline, how many of its cases the run matched, and which
// families the run lacks entirely. Each baseline row is one case (the rows are merged by device
// and case_id).
void compare_coverage(BaselineDiff& diff, const RunSide& baseline, const std::vector<bool>& matched,
                      const RunSide& current, const DiffOptions& options) {
  std::map<std::pair<std::string, std::string>, TargetCoverage> targets;
  for (std::size_t p = 0; p < baseline.facts.size(); ++p) {
    const RowFacts::Group& g = baseline.facts.group(baseline.facts.row(p).group);
    const std::string kernel(baseline.facts.text(g.kernel)), variant(baseline.facts.text(g.variant));
    TargetCoverage& t = targets[{kernel, variant}];
    t.kernel = kernel;
    t.variant = variant;
    ++t.total;
    t.matched += matched[p];
  }
  std::map<std::string, MissingFamily> missing;
  for (auto& [name, t] : targets) {
    const std::string family = kernel_family(t.kernel);
    // A shard runs some families only: only a whole run can miss one.
    if (!options.partial && !current.families.count(family)) {
      MissingFamily& f = missing[family];
      f.family = family;
      f.cases += t.total;
      ++f.targets;
      f.allowed = std::find(options.allow_missing.begin(), options.allow_missing.end(), family) !=
                  options.allow_missing.end();
      t.out_of_scope = f.allowed;
    }
    if (options.partial && !current.targets.count(name)) t.out_of_scope = true;
    if (!t.out_of_scope) {
      diff.coverage_total += t.total;
      diff.covered_cases += t.matched;
    }
    diff.coverage.push_back(t);
  }
  for (auto& [family, f] : missing) diff.missing_families.push_back(f);
}

std::string percent_text(std::size_t part, std::size_t whole) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
  return buf;
}

// Lines of both runs compared point by point (boundary_compare.hpp): moved, moved by a race,
// not reached, or the same.
void compare_boundaries(BaselineDiff& diff, const RowFacts& baseline_facts, const RowSource& baseline,
                        const RowFacts& current_facts, const RowSource& current) {
  std::map<std::string, BoundaryLine> before;
  for (auto& line : boundary_table(baseline_facts, baseline)) before.emplace(line.key(), std::move(line));
  for (auto& line : boundary_table(current_facts, current)) {
    const auto it = before.find(line.key());
    if (it == before.end()) {
      diff.boundaries_only_in_current.push_back(std::move(line));
      continue;
    }
    ++diff.boundary_lines_in_both;
    BoundaryComparison c = compare_boundary(it->second, line);
    switch (c.change) {
      case BoundaryChange::same: break;
      case BoundaryChange::moved: diff.moved_boundaries.push_back({it->second, line, std::move(c.what)}); break;
      case BoundaryChange::moved_by_race:
        diff.boundaries_moved_by_race.push_back({it->second, line, std::move(c.what)});
        break;
      case BoundaryChange::not_reached:
        diff.boundaries_not_reached.push_back({it->second, line, std::move(c.what)});
        break;
    }
    before.erase(it);
  }
  for (auto& [key, line] : before) diff.boundaries_only_in_baseline.push_back(std::move(line));
}

template <typename List, typename Print>
void section(std::ostringstream& out, const std::string& title, const List& items, std::size_t max_listed,
             Print print) {
  if (items.empty()) return;
  out << "\n" << title << " (" << items.size() << "):\n";
  std::size_t shown = 0;
  for (const auto& item : items) {
    if (shown++ == max_listed) {
      out << "  ... and " << items.size() - max_listed << " more\n";
      break;
    }
    out << "  ";
    print(item);
    out << "\n";
  }
}

// 4 significant digits, never an exponent ("12346", not "1.235e+04").
std::string ms(double v) { return significant(v, 4); }

}  // namespace

std::string kernel_family(const std::string& kernel) { return kernel.substr(0, kernel.find('.')); }

std::string commits_text(const std::vector<std::string>& commits) {
  if (commits.empty()) return "no rows";
  std::string out;
  for (std::size_t i = 0; i < commits.size() && i < 3; ++i)
    out += (i ? ", " : "") + (commits[i].empty() ? std::string("(none)") : commits[i]);
  if (commits.size() > 3) out += " and " + std::to_string(commits.size() - 3) + " more";
  return out;
}

std::vector<TargetCoverage> BaselineDiff::unmatched_targets() const {
  std::vector<TargetCoverage> out;
  for (const TargetCoverage& t : coverage) {
    if (t.out_of_scope || t.matched > 0) continue;
    // A target of a missing family is told once, as the family.
    const bool family_missing = std::any_of(missing_families.begin(), missing_families.end(), [&](const auto& f) {
      return f.family == kernel_family(t.kernel);
    });
    if (!family_missing) out.push_back(t);
  }
  return out;
}

std::vector<MissingFamily> BaselineDiff::missing_families_failing() const {
  std::vector<MissingFamily> out;
  for (const MissingFamily& f : missing_families)
    if (!f.allowed) out.push_back(f);
  return out;
}

std::optional<std::string> BaselineDiff::incomparable() const {
  if (baseline_devices != current_devices)
    return "the runs are of different devices: baseline " + joined(baseline_devices) + ", current " +
           joined(current_devices) + "; gate a run against the baseline of its own device";
  if (matched_cases == 0)
    return "no case matched by device and case_id (baseline " + std::to_string(baseline_rows) + " rows, current " +
           std::to_string(current_rows) + " rows): another suite, seed or build?";
  return std::nullopt;
}

BaselineDiff diff_runs(const std::vector<CsvRow>& baseline, const std::vector<CsvRow>& current,
                       const DiffOptions& options) {
  // As the command reads files: each run's rows merged by device and case_id.
  const std::vector<CsvRow> before = merge_rows({baseline}), after = merge_rows({current});
  return diff_runs(RowVector(before), RowVector(after), options);
}

BaselineDiff diff_runs(const RowSource& baseline, const RowSource& current, const DiffOptions& options) {
  BaselineDiff diff;
  diff.threshold = options.timing.threshold;
  diff.min_coverage = options.min_coverage;
  diff.partial = options.partial;
  RunSide before(options.known_races), after(options.known_races);
  baseline.visit([&](std::size_t, const CsvRow& row) { before.add(row); });

  // The baseline's verdict text of a matched case (read again only for a text that is no verdict).
  const auto verdict_text = [&](std::size_t position) {
    const auto verdict = verdict_from_byte(before.verdicts[position]);
    return verdict ? verdict->to_string() : baseline.at(position).get("verdict");
  };
  std::vector<bool> matched(baseline.size());
  current.visit([&](std::size_t, const CsvRow& row) {
    after.add(row);
    if (options.each_current_row) options.each_current_row(row);
    const RowOutcome now = row.outcome();
    const auto found = baseline.find(row.view("device"), row.view("case_id"));
    if (!found) {
      diff.added_cases.push_back(change_of(row, "absent"));
      // A case the baseline never ran that fails now is a new failure: no baseline vouches for it.
      if (now.fails_run()) record_new_failure(diff, row, change_of(row, "absent"));
      return;
    }
    ++diff.matched_cases;
    matched[*found] = true;
    const std::optional<Verdict> then = verdict_from_byte(before.verdicts[*found]);
    const RowOutcome then_outcome{std::nullopt, std::nullopt, std::nullopt, then};
    if (now.fails_run()) {
      if (now.verdict == then)
        diff.still_failing.push_back(change_of(row, verdict_text(*found)));
      else
        record_new_failure(diff, row, change_of(row, verdict_text(*found)));
    } else if (then_outcome.nondeterministic()) {
      diff.races_not_seen.push_back(change_of(row, verdict_text(*found)));
    } else if (then_outcome.fails_run()) {
      diff.no_longer_failing.push_back(change_of(row, verdict_text(*found)));
    } else if (now.verdict != then) {
      diff.other_changes.push_back(change_of(row, verdict_text(*found)));
    }

    // Timings: the baseline's row is read again only when this one was timed.
    const auto t_new = timing_of(row);
    const auto t_old = t_new ? timing_of(baseline.at(*found)) : std::nullopt;
    if (!t_old || !t_new) {
      ++diff.timing_not_compared;
      return;
    }
    TimedCase timed{row.get("device"), row.get("kernel"), row.get("variant"), row.get("replay"), *t_old, *t_new,
                    compare_timing(*t_old, *t_new, options.timing)};
    switch (timed.comparison.change) {
      case TimingChange::same: ++diff.timing_same; break;
      case TimingChange::slower: diff.slower.push_back(std::move(timed)); break;
      case TimingChange::faster: diff.faster.push_back(std::move(timed)); break;
      case TimingChange::unsure: diff.unsure.push_back(std::move(timed)); break;
    }
  });
  for (std::size_t p = 0; p < baseline.size(); ++p)
    if (!matched[p]) {
      const CsvRow row = baseline.at(p);
      diff.removed_cases.push_back(change_of(row, row.get("verdict")));
      diff.removed_cases.back().after = "absent";
    }

  diff.baseline_rows = baseline.size();
  diff.current_rows = current.size();
  diff.baseline_devices.assign(before.devices.begin(), before.devices.end());
  diff.current_devices.assign(after.devices.begin(), after.devices.end());
  diff.baseline_commits.assign(before.commits.begin(), before.commits.end());
  diff.current_commits.assign(after.commits.begin(), after.commits.end());
  for (const auto& k : after.kernels)
    if (!before.kernels.count(k)) diff.added_kernels.push_back(k);
  for (const auto& k : before.kernels)
    if (!after.kernels.count(k)) diff.removed_kernels.push_back(k);

  compare_boundaries(diff, before.facts, baseline, after.facts, current);
  compare_coverage(diff, before, matched, after, options);
  return diff;
}

std::string render_diff(const BaselineDiff& diff, std::size_t max_listed) {
  std::ostringstream out;
  const std::string commits =
      "commits: baseline " + commits_text(diff.baseline_commits) + "; current " + commits_text(diff.current_commits) + "\n";
  if (const auto why = diff.incomparable()) {
    // Nothing below would mean anything: no "passed", no lists.
    out << "gate: NOT RUN (cannot compare: " << *why << ")\n" << commits;
    out << "baseline " << diff.baseline_rows << " rows on " << joined(diff.baseline_devices) << "\n";
    out << "current  " << diff.current_rows << " rows on " << joined(diff.current_devices) << "\n";
    out << diff.matched_cases << " case(s) matched by device and case_id\n";
    return out.str();
  }
  const std::size_t problems = diff.new_failures.size() + diff.new_model_mismatches.size() +
                               diff.new_unexpected_passes.size() + diff.moved_boundaries.size() + diff.slower.size() +
                               diff.coverage_problems();
  out << "gate: " << (diff.gate_failed() ? "FAILED (" + std::to_string(problems) + " problem(s))" : "passed") << "\n";
  out << commits;
  out << "baseline " << diff.baseline_rows << " rows, current " << diff.current_rows << " rows, " << diff.matched_cases
      << " case(s) matched by device and case_id; timing threshold " << diff.threshold * 100 << "%\n";

  auto print_case = [&](const CaseChange& c) {
    out << c.device << "  " << c.kernel << " " << c.variant << "  " << c.before << " -> " << c.after << "  ("
        << c.detail << ")  gridfuzz replay '" << c.replay << "'";
  };
  auto print_timed = [&](const TimedCase& t) {
    out << t.device << "  " << t.kernel << " " << t.variant << "  median " << ms(t.before.median_ms) << " ms ["
        << ms(t.before.min_ms) << ", " << ms(t.before.max_ms) << "] n=" << t.before.samples << " -> "
        << ms(t.after.median_ms) << " ms [" << ms(t.after.min_ms) << ", " << ms(t.after.max_ms)
        << "] n=" << t.after.samples << "  " << to_string(t.comparison.change) << ": " << t.comparison.reason
        << "  gridfuzz replay --timing '" << t.replay << "'";  // --timing: the replay shows the times
  };
  auto print_move = [&](const BoundaryMove& m) { out << line_name(m.after) << ": " << m.what; };
  auto print_line = [&](const BoundaryLine& b) {
    out << line_name(b) << ": predicted first fail " << value_text(b.predicted.first_fail);
  };
  auto print_text = [&](const std::string& s) { out << s; };

  if (diff.gate_failed()) out << "\n== What fails the gate ==\n";
  section(out, "New failures", diff.new_failures, max_listed, print_case);
  section(out, "New model mismatches", diff.new_model_mismatches, max_listed, print_case);
  section(out, "New unexpected passes", diff.new_unexpected_passes, max_listed, print_case);
  section(out, "Moved boundaries", diff.moved_boundaries, max_listed, print_move);
  section(out, "Significant slow-downs (SLOWER)", diff.slower, max_listed, print_timed);
  section(out, "Kernel x variants of the baseline with no matched case", diff.unmatched_targets(), max_listed,
          [&](const TargetCoverage& t) {
            out << t.kernel << " " << t.variant << "  0 of " << t.total << " baseline case(s) matched";
          });
  section(out, "Kernel families of the baseline with no row in the run (missing from the build?)",
          diff.missing_families_failing(), max_listed, [&](const MissingFamily& f) {
            out << f.family << "  " << f.cases << " baseline case(s) in " << f.targets
                << " kernel x variant(s); --allow-missing " << f.family << " if it is left out on purpose";
          });
  if (diff.coverage_below_minimum())
    out << "\nCoverage under --min-coverage:\n  " << diff.covered_cases << " of " << diff.coverage_total
        << " baseline case(s) matched (" << percent_text(diff.covered_cases, diff.coverage_total) << ") < "
        << diff.min_coverage << "%\n";

  // The whole table, passing or not: how much of the baseline this run vouches for.
  out << "\n== Coverage: matched / baseline cases per kernel x variant ==\n";
  out << "total " << diff.covered_cases << " / " << diff.coverage_total << " ("
      << percent_text(diff.covered_cases, diff.coverage_total) << "; --min-coverage " << diff.min_coverage << "%"
      << (diff.partial ? "; --partial: only the kernel x variants the run has" : "") << ")\n";
  std::size_t width = 0;
  for (const TargetCoverage& t : diff.coverage) width = std::max(width, t.kernel.size() + 1 + t.variant.size());
  for (const TargetCoverage& t : diff.coverage) {
    const std::string name = t.kernel + " " + t.variant;
    out << "  " << name << std::string(width - name.size(), ' ') << "  " << t.matched << " / " << t.total;
    const auto family = std::find_if(diff.missing_families.begin(), diff.missing_families.end(),
                                     [&](const MissingFamily& f) { return f.family == kernel_family(t.kernel); });
    if (family != diff.missing_families.end())
      out << (family->allowed ? "  family missing, allowed (--allow-missing)" : "  FAMILY MISSING");
    else if (t.out_of_scope)
      out << "  not in this run (--partial)";
    else if (t.matched == 0)
      out << "  NONE MATCHED";
    out << "\n";
  }
  // A boundary one run did not reach is coverage, not a change: how many lines were compared.
  out << "boundary lines in both runs " << diff.boundary_lines_in_both << ": "
      << diff.boundaries_not_reached.size() << " not reached by one run, " << diff.boundaries_moved_by_race.size()
      << " moved only by a race (listed below)\n";

  out << "\n== For information ==\n";
  out << "timings: SAME " << diff.timing_same << ", FASTER " << diff.faster.size() << ", SLOWER " << diff.slower.size()
      << ", UNSURE " << diff.unsure.size() << ", not compared (untimed in either run) " << diff.timing_not_compared
      << "\n";
  section(out, "Still failing (the same verdict in the baseline)", diff.still_failing, max_listed, print_case);
  section(out, "No longer failing", diff.no_longer_failing, max_listed, print_case);
  section(out, "Races not seen this time (fail:nondeterministic in the baseline; a race need not show in every run)",
          diff.races_not_seen, max_listed, print_case);
  section(out, "Other verdict changes", diff.other_changes, max_listed, print_case);
  section(out, "Faster", diff.faster, max_listed, print_timed);
  section(out, "Unsure timings", diff.unsure, max_listed, print_timed);
  section(out, "Added kernels", diff.added_kernels, max_listed, print_text);
  section(out, "Removed kernels", diff.removed_kernels, max_listed, print_text);
  section(out, "Added cases", diff.added_cases, max_listed, print_case);
  section(out, "Removed cases", diff.removed_cases, max_listed, print_case);
  section(out, "Boundaries moved only by a race (its rows left out, both runs agree; a race need not show in every run)",
          diff.boundaries_moved_by_race, max_listed, print_move);
  section(out, "Boundaries one run did not reach (a deciding case is in one run only; equal where both ran)",
          diff.boundaries_not_reached, max_listed, print_move);
  section(out, "Boundary lines only in the baseline", diff.boundaries_only_in_baseline, max_listed, print_line);
  section(out, "Boundary lines only in the current run", diff.boundaries_only_in_current, max_listed, print_line);
  return out.str();
}

}  // namespace gridfuzz::reports
