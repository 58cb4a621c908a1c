// `gridfuzz replay REPLAY | CSV:ROW`: re-run exactly one recorded case.
#include <iostream>
#include <optional>

#include "gridfuzz/app/commands.hpp"
#include "gridfuzz/reports/csv_reader.hpp"
#include "gridfuzz/app/parse.hpp"
#include "gridfuzz/app/session.hpp"
#include "gridfuzz/core/output_file.hpp"

namespace gridfuzz::app {

int run_cases(Session& session, const std::vector<Case>& cases, const std::string& csv_path);

namespace {

// "file.csv:7" -> the file; nothing for a replay string.
std::optional<std::string> csv_of(const std::string& text) {
  const std::size_t at = text.rfind(".csv:");
  if (at == std::string::npos) return std::nullopt;
  return text.substr(0, at + 4);
}

// "file.csv:7" -> the replay string of data row 7 (1-based); anything else is a replay string.
std::string resolve_replay(const std::string& text) {
  const std::size_t at = text.rfind(".csv:");
  if (at == std::string::npos) return text;
  const std::string path = text.substr(0, at + 4);
  const std::uint64_t n = parse_u64(text.substr(at + 5), "replay row");
  const auto rows = reports::read_csv(path).rows;
  if (n == 0 || n > rows.size())
    throw UsageError("replay: " + path + " has " + std::to_string(rows.size()) + " rows, not row " + std::to_string(n));
  return rows[n - 1].get("replay");
}

}  // namespace

Runner add_replay_command(CLI::App& app, const GlobalOptions& global) {
  auto text = std::make_shared<std::string>();
  auto engine = std::make_shared<EngineOptions>();
  auto* cmd = app.add_subcommand("replay", "re-run one recorded case: a replay string or CSV:ROW (1-based)");
  cmd->add_option("case", *text, "KERNEL/VARIANT/SEED/params, or file.csv:ROW")->required();
  add_engine_options(*cmd, *engine);
  return [text, engine, &global]() -> int {
    // An output never names an input of its command: the row replayed is not appended to its CSV.
    if (const auto from = csv_of(*text); from && !engine->csv.empty() && is_same_file(engine->csv, *from))
      throw UsageError("--csv '" + engine->csv + "' is the same file as the CSV the case is read from, '" + *from +
                       "': an output never replaces or extends an input of the command");
    Session session(global, *engine);
    Case c;
    try {
      c = Case::parse_replay(resolve_replay(*text));
    } catch (const reports::CsvIoError&) {
      throw;  // a read error: the environment
    } catch (const reports::CsvError& e) {
      throw UsageError(std::string("replay: ") + e.what());
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("replay: ") + e.what());
    }
    return run_cases(session, {c}, engine->csv);
  };
}

}  // namespace gridfuzz::app
