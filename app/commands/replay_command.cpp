// `gridfuzz replay REPLAY | CSV:ROW | CSV | --failed CSV`: re-run recorded cases: one replay
// string, one row of a CSV, every row of a CSV, or every failing row of one (`--failed CSV`; the
// older spelling `CSV --failing` still works), as one batch; `--maxfail N` stops after N failures.
// Every replayed case gets the self-check (its production call made again and compared with
// itself) unless --self-check-share says otherwise.
#include <filesystem>
#include <iostream>
#include <optional>
#include <set>

#include "gridfuzz/app/commands.hpp"
#include "gridfuzz/app/parse.hpp"
#include "gridfuzz/app/session.hpp"
#include "gridfuzz/core/output_file.hpp"
#include "gridfuzz/reports/csv_reader.hpp"

namespace gridfuzz::app {
namespace {

// What the argument names: a replay string, one data row of a CSV (1-based), or all its rows.
struct ReplaySource {
  std::optional<std::string> csv;  // the CSV file, when the argument names one
  std::optional<std::uint64_t> row;
};

ReplaySource source_of(const std::string& text) {
  const std::size_t at = text.rfind(".csv:");
  if (at != std::string::npos) return {text.substr(0, at + 4), parse_u64(text.substr(at + 5), "replay row")};
  if (text.size() > 4 && text.ends_with(".csv")) return {text, std::nullopt};
  return {};
}

// The cases the argument names, each once (a CSV may hold a case twice: resumed runs, merges).
std::vector<Case> cases_of(const std::string& text, const ReplaySource& source, bool failing_only) {
  if (!source.csv) {
    if (failing_only) throw UsageError("replay --failing takes a CSV file, not a replay string");
    return {Case::parse_replay(text)};
  }
  if (source.row && failing_only)
    throw UsageError("replay --failing takes a whole CSV, not one row (" + text + ")");
  // A row at a time: only the replay strings of the rows replayed are kept.
  reports::CsvRowStream stream{std::filesystem::path(*source.csv)};
  std::vector<std::string> replays;
  reports::CsvRow row;
  std::size_t line = 0;
  while (stream.next(row, line)) {
    const bool chosen = source.row ? stream.rows_read() == *source.row
                                   : !failing_only || (row.outcome().verdict && row.outcome().verdict->fails_run());
    if (chosen) replays.push_back(row.get("replay"));
  }
  if (source.row && replays.empty())
    throw UsageError("replay: " + *source.csv + " has " + std::to_string(stream.rows_read()) + " rows, not row " +
                     std::to_string(*source.row));
  std::vector<Case> cases;
  std::set<std::string> ids;
  for (const std::string& r : replays) {
    Case c = Case::parse_replay(r);
    if (ids.insert(c.id()).second) cases.push_back(std::move(c));
  }
  if (cases.empty())
    std::cerr << "note: " << *source.csv << " holds no " << (failing_only ? "failing " : "") << "row to replay\n";
  return cases;
}

}  // namespace

Runner add_replay_command(CLI::App& app, const GlobalOptions& global) {
  auto text = std::make_shared<std::string>();
  auto failed_csv = std::make_shared<std::string>();
  auto failing = std::make_shared<bool>(false);
  auto max_failures = std::make_shared<std::size_t>(0);
  auto engine = std::make_shared<EngineOptions>();
  auto* cmd = app.add_subcommand(
      "replay", "re-run recorded cases: a replay string, CSV:ROW (1-based), every row of a CSV, or --failed CSV: its failing rows");
  cmd->add_option("case", *text, "KERNEL/VARIANT/SEED/params, file.csv:ROW, or file.csv");
  cmd->add_option("--failed", *failed_csv, "replay every row of this CSV whose verdict fails a run");
  cmd->add_flag("--failing", *failing, "with a whole CSV as the case: only its failing rows (the same as --failed CSV)");
  add_maxfail_option(*cmd, *max_failures);
  // A replay asks whether the row's outcome holds: every replayed case is also compared with its own
  // second call (self:same / self:differ:N on its line and in its row), unless told otherwise.
  engine->self_check_share = 1;
  add_engine_options(*cmd, *engine);
  return [text, failed_csv, failing, max_failures, engine, &global]() -> int {
    if (!failed_csv->empty() && !text->empty())
      throw UsageError("replay: give the cases once: --failed '" + *failed_csv + "' or '" + *text + "', not both");
    if (failed_csv->empty() && text->empty())
      throw UsageError("replay: name the cases: a replay string, file.csv:ROW, file.csv, or --failed file.csv");
    const bool failing_only = *failing || !failed_csv->empty();
    const std::string& named = failed_csv->empty() ? *text : *failed_csv;
    const ReplaySource source = failed_csv->empty() ? source_of(*text) : ReplaySource{*failed_csv, std::nullopt};
    // An output never names an input of its command: the rows replayed are not appended to their CSV.
    if (source.csv && !engine->csv.empty() && is_same_file(engine->csv, *source.csv))
      throw UsageError("--csv '" + engine->csv + "' is the same file as the CSV the cases are read from, '" +
                       *source.csv + "': an output never replaces or extends an input of the command");
    Session session(global, *engine);
    std::vector<Case> cases;
    try {
      cases = cases_of(named, source, failing_only);
    } catch (const reports::CsvIoError&) {
      throw;  // a read error: the environment
    } catch (const reports::CsvError& e) {
      throw UsageError(std::string("replay: ") + e.what());
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("replay: ") + e.what());
    }
    return run_cases(session, cases, engine->csv, *max_failures);
  };
}

}  // namespace gridfuzz::app
