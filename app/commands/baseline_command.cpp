// `gridfuzz baseline accept BASELINE RUN --reason TEXT`: takes an intended change into the gate's
// baseline. RUN's rows replace the baseline's of the same (device, case_id), the baseline's other
// rows are kept, RUN's new cases are added (reports/baseline_accept.hpp); a dirty or static run,
// another device's, or one that lacks some of the accepted kernels' cases is refused (exit 2,
// nothing written). The merged baseline is written whole in the current schema (a temporary file
// renamed over BASELINE, or --out FILE), and a line with the reason is added to the ledger
// beside it, <BASELINE less .csv>.accepts.md. docs/REPORTS.md, "Accepting a change".
// `gridfuzz baseline retire BASELINE --plan PLAN --reason TEXT`: drops the baseline's rows whose
// case the current plan no longer holds (reports/baseline_retire.hpp), written and recorded the
// same way. docs/REPORTS.md, "Retiring cases the plan left".
#include <sys/stat.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <iostream>

#include "gridfuzz/app/commands.hpp"
#include "gridfuzz/app/parse.hpp"
#include "gridfuzz/core/output_file.hpp"
#include "gridfuzz/core/text_file.hpp"
#include "gridfuzz/reports/baseline_accept.hpp"
#include "gridfuzz/reports/baseline_retire.hpp"
#include "gridfuzz/reports/csv_document.hpp"
#include "gridfuzz/reports/csv_reader.hpp"
#include "gridfuzz/reports/row_set.hpp"
#include "gridfuzz/reports/schema.hpp"
#include "gridfuzz/reports/text_escape.hpp"

namespace gridfuzz::app {
namespace {

struct AcceptArgs {
  std::string baseline, run, reason, out;
  std::vector<std::string> only;
  bool partial = false;
  bool first = false;  // --new
  bool dry_run = false;
  std::size_t max_listed = 50;
};

constexpr std::string_view kLedgerTitle = "# Accepted changes to this baseline\n";

// The ledger beside the baseline written: nvidia-h200.csv -> nvidia-h200.accepts.md.
std::filesystem::path ledger_path(const std::filesystem::path& baseline) {
  std::filesystem::path p = baseline;
  if (p.extension() == ".csv") p.replace_extension();
  p += ".accepts.md";
  return p;
}

std::string utc_now() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&t, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return stamp;
}

// A CSV's rows, one per (device, case_id), strictly read; a file of a newer minor is refused, since
// its columns this build does not know would be dropped from the baseline.
std::vector<reports::CsvRow> read_input(const std::string& path, const std::string& what) {
  reports::CsvReadResult read = reports::read_csv(path);
  if (!read.ignored_columns.empty())
    throw UsageError(what + " " + path + " has columns of a newer schema (" + read.ignored_columns.front() +
                     ", ...): accept with the gridfuzz that wrote it");
  if (read.dropped_partial_line)
    std::cerr << "note: " << reports::terminal_text(path) << ": an unfinished last row (line "
              << *read.dropped_partial_line << ") is left out: its case did not finish\n";
  std::vector<std::string> notes;
  auto rows = reports::merge_rows({std::move(read.rows)}, &notes);
  for (const auto& note : notes) std::cerr << "note: " << reports::terminal_text(path) << ": " << note << "\n";
  return rows;
}

std::string counts_text(const reports::AcceptResult& r) {
  return std::to_string(r.replaced_other_verdict) + " replaced with another verdict, " +
         std::to_string(r.replaced_same_verdict) + " with the same, " + std::to_string(r.added) + " new, " +
         std::to_string(r.kept) + " kept";
}

std::string only_text(const std::vector<std::string>& only) {
  std::string out;
  for (const auto& pattern : only) out += (out.empty() ? "" : " ") + pattern;
  return out;
}

// One ledger line: when, which build, what was taken, the counts, why.
std::string ledger_line(const AcceptArgs& a, const reports::AcceptResult& r) {
  std::string commits;
  for (const auto& c : r.commits) commits += (commits.empty() ? "" : ", ") + reports::markdown_code(c);
  std::string line = "- " + utc_now() + ", run " + commits;
  if (!a.only.empty()) line += ", --only " + reports::markdown_code(only_text(a.only));
  if (a.partial) line += ", --partial";
  return line + ": " + counts_text(r) + ". " + reports::markdown_text(a.reason) + "\n";
}

// The ledger as it will be: the old one (gridfuzz's, by its title) with the line added, or a new one.
std::string ledger_text(const std::filesystem::path& path, const std::string& line) {
  struct stat st {};
  std::string text = ::lstat(path.c_str(), &st) == 0 ? read_text_file(path.string(), "the ledger") : std::string();
  if (text.empty())  // none yet (or an empty file, which an output may replace)
    return std::string(kLedgerTitle) +
           "\n`gridfuzz baseline accept` adds a line per accept: when (UTC), the run's commit, what it took, the\n"
           "counts, and the reason given (docs/REPORTS.md, \"Accepting a change\").\n\n" +
           line;
  if (!text.starts_with(kLedgerTitle))
    throw UsageError(path.string() + " is not a ledger of accepts (it does not start with '" +
                     std::string(kLedgerTitle.substr(0, kLedgerTitle.size() - 1)) + "'): it is left as it is");
  if (!text.empty() && text.back() != '\n') text += '\n';
  return text + line;
}

void print_changes(const AcceptArgs& a, const reports::AcceptResult& r, const std::string& out) {
  using reports::terminal_text;
  std::cout << "gridfuzz baseline accept " << terminal_text(a.baseline) << " " << terminal_text(a.run) << "\n"
            << "taken from the run: " << r.taken << " row(s)"
            << (a.only.empty() ? "" : " (--only " + terminal_text(only_text(a.only)) + ")") << "\n"
            << "replaced, another verdict: " << r.replaced_other_verdict << "\n"
            << "replaced, same verdict: " << r.replaced_same_verdict << "\n"
            << "new: " << r.added << "\n"
            << "kept: " << r.kept << "\n";
  if (!r.verdict_changes.empty()) {
    std::cout << "\nverdict changes:\n";
    std::size_t listed = 0;
    for (const auto& c : r.verdict_changes) {
      if (listed++ == a.max_listed) break;
      std::cout << "  " << terminal_text(c.kernel) << " " << terminal_text(c.variant) << " " << terminal_text(c.case_id)
                << ": " << terminal_text(c.before) << " -> " << terminal_text(c.after) << "  "
                << terminal_text(c.replay) << "\n";
    }
    if (r.verdict_changes.size() > a.max_listed)
      std::cout << "  and " << r.verdict_changes.size() - a.max_listed << " more\n";
  }
  std::cout << "\n"
            << (a.dry_run ? "dry run: would write " : "written: ") << terminal_text(out) << " ("
            << r.merged.size() << " rows, schema " << reports::kSchemaVersion << "), "
            << terminal_text(ledger_path(out).string()) << " (reason recorded)\n";
}

// One line of printable text, not blank: what the ledger records.
void check_reason(const std::string& reason) {
  if (reason.empty() || reason.find_first_not_of(" \t") == std::string::npos)
    throw UsageError("--reason is empty: say why the baseline changes");
  if (!reports::is_printable_utf8(reason)) throw UsageError("--reason must be one line of printable text");
}

int accept(const AcceptArgs& a) {
  check_reason(a.reason);
  const std::string out = a.out.empty() ? a.baseline : a.out;
  std::error_code ec;
  const bool exists = std::filesystem::exists(std::filesystem::symlink_status(a.baseline, ec));
  if (a.first && exists) throw UsageError("--new: " + a.baseline + " exists; accept into it without --new");
  if (!a.first && !exists)
    throw UsageError(a.baseline + " does not exist; give --new to make a first baseline from the run");

  // The outputs' paths are checked before anything is read or written: BASELINE may be replaced
  // in place (the point of accept), never RUN; --out FILE is neither input.
  OutputFile csv_out{out, a.out.empty() ? "BASELINE" : "--out", "a gridfuzz CSV", reports::starts_like_gridfuzz_csv,
                     {{"the run", a.run}}};
  if (!a.out.empty() && exists) csv_out.inputs.emplace_back("the baseline", a.baseline);
  const std::filesystem::path ledger = ledger_path(out);
  OutputFile ledger_out{ledger, "the ledger", "a ledger of accepts",
                        [](std::string_view head) { return head.starts_with(kLedgerTitle); },
                        {{"the run", a.run}, {"the baseline", a.baseline}}};
  check_output_file(csv_out);
  check_output_file(ledger_out);

  const std::vector<reports::CsvRow> run = read_input(a.run, "RUN");
  const std::vector<reports::CsvRow> baseline = exists ? read_input(a.baseline, "BASELINE") : std::vector<reports::CsvRow>{};
  const reports::AcceptResult result = reports::accept_run(baseline, run, {a.only, a.partial});
  if (result.refused) {
    std::cerr << "gridfuzz baseline accept: refused: " << reports::terminal_text(*result.refused)
              << " (nothing written)\n";
    return kUsage;
  }
  const std::string csv = reports::csv_document(result.merged);
  const std::string ledger_now = ledger_text(ledger, ledger_line(a, result));
  if (!a.dry_run) {
    write_output_file(csv_out, csv);
    write_output_file(ledger_out, ledger_now);
  }
  print_changes(a, result, out);
  return kOk;
}

struct RetireArgs {
  std::string baseline, plan, reason, out;
  bool dry_run = false;
};

int retire(const RetireArgs& a) {
  check_reason(a.reason);
  const std::string out = a.out.empty() ? a.baseline : a.out;
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(a.baseline, ec)))
    throw UsageError(a.baseline + " does not exist: nothing to retire from");
  OutputFile csv_out{out, a.out.empty() ? "BASELINE" : "--out", "a gridfuzz CSV", reports::starts_like_gridfuzz_csv,
                     {{"the plan", a.plan}}};
  if (!a.out.empty()) csv_out.inputs.emplace_back("the baseline", a.baseline);
  const std::filesystem::path ledger = ledger_path(out);
  OutputFile ledger_out{ledger, "the ledger", "a ledger of accepts",
                        [](std::string_view head) { return head.starts_with(kLedgerTitle); },
                        {{"the plan", a.plan}, {"the baseline", a.baseline}}};
  check_output_file(csv_out);
  check_output_file(ledger_out);

  const std::vector<reports::CsvRow> plan = read_input(a.plan, "PLAN");
  const std::vector<reports::CsvRow> baseline = read_input(a.baseline, "BASELINE");
  const reports::RetireResult result = reports::retire_unplanned(baseline, plan);
  if (result.refused) {
    std::cerr << "gridfuzz baseline retire: refused: " << reports::terminal_text(*result.refused) << " (nothing written)\n";
    return kUsage;
  }
  const std::string line = "- " + utc_now() + ", retired the cases the plan no longer holds (" +
                           std::to_string(plan.size()) + " planned): " + std::to_string(result.retired_total) +
                           " retired, " + std::to_string(result.kept.size()) + " kept. " +
                           reports::markdown_text(a.reason) + "\n";
  const std::string csv = reports::csv_document(result.kept);
  const std::string ledger_now = ledger_text(ledger, line);
  if (!a.dry_run) {
    write_output_file(csv_out, csv);
    write_output_file(ledger_out, ledger_now);
  }
  using reports::terminal_text;
  std::cout << "gridfuzz baseline retire " << terminal_text(a.baseline) << " --plan " << terminal_text(a.plan) << "\n"
            << "planned cases: " << plan.size() << "\n"
            << "kept: " << result.kept.size() << "\n"
            << "retired: " << result.retired_total << "\n";
  for (const auto& [target, n] : result.retired) std::cout << "  " << terminal_text(target) << ": " << n << "\n";
  std::cout << "\n"
            << (a.dry_run ? "dry run: would write " : "written: ") << terminal_text(out) << " (" << result.kept.size()
            << " rows, schema " << reports::kSchemaVersion << "), " << terminal_text(ledger.string())
            << " (reason recorded)\n";
  return kOk;
}

}  // namespace

Runner add_baseline_command(CLI::App& app, const GlobalOptions&) {
  auto a = std::make_shared<AcceptArgs>();
  auto r = std::make_shared<RetireArgs>();
  auto* group = app.add_subcommand("baseline", "change the gate's baseline: `baseline accept` takes a run's rows in, "
                                               "`baseline retire` drops the cases the plan no longer holds");
  group->require_subcommand(1);
  auto* cmd = group->add_subcommand(
      "accept", "merge a run into a baseline CSV by case (its rows replace the baseline's, the others are kept), "
                "with a reason recorded; a dirty, static, other device's or shorter run is refused (exit 2)");
  cmd->fallthrough();
  cmd->add_option("baseline", a->baseline, "the baseline CSV, updated in place (baselines/<device>.csv)")->required();
  cmd->add_option("run", a->run, "the CSV of the run to accept (one device; `gridfuzz merge` its shards first)")
      ->required();
  cmd->add_option("--reason", a->reason, "why the baseline changes (one line, recorded in the ledger)")->required();
  cmd->add_option("--only", a->only,
                  "take only the run's rows whose kernel or kernel/variant matches this pattern (fnmatch, e.g. "
                  "'mlx.*' or 'affine.qmm/hopper'; repeatable)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_flag("--partial", a->partial,
                "accept a run that lacks some of the baseline's cases of the kernels taken (their rows are kept)");
  cmd->add_flag("--new", a->first, "BASELINE does not exist yet: make it from the run");
  cmd->add_option("--out", a->out, "write the merged baseline (and its ledger) here instead of over BASELINE");
  cmd->add_flag("--dry-run", a->dry_run, "print what would change and write nothing");
  cmd->add_option("--max-listed", a->max_listed, "verdict changes printed (default 50)")->check(whole_number(1u << 30));
  auto* retire_cmd = group->add_subcommand(
      "retire", "drop the baseline's rows whose case the current plan no longer holds (after a planner change), "
                "with a reason recorded; PLAN is this build's static plan: `gridfuzz sweep --static "
                "--device-preset <cc> --cases 0 --csv PLAN`");
  retire_cmd->fallthrough();
  retire_cmd->add_option("baseline", r->baseline, "the baseline CSV, updated in place (baselines/<device>.csv)")->required();
  retire_cmd->add_option("--plan", r->plan, "the static plan's CSV (every row observed `static`)")->required();
  retire_cmd->add_option("--reason", r->reason, "why the baseline changes (one line, recorded in the ledger)")->required();
  retire_cmd->add_option("--out", r->out, "write the baseline (and its ledger) here instead of over BASELINE");
  retire_cmd->add_flag("--dry-run", r->dry_run, "print what would change and write nothing");
  return [a, cmd, r, retire_cmd]() -> int {
    if (cmd->parsed()) return accept(*a);
    if (retire_cmd->parsed()) return retire(*r);
    return kUsage;
  };
}

}  // namespace gridfuzz::app
