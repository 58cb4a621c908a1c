// `gridfuzz merge OUT.csv IN.csv...`: one CSV of several (a sweep's shards, one file per machine),
// one row per (device, case_id), written whole in the current schema. Every input is read by the
// strict reader; a case met in two files is refused (exit 2, nothing written) unless --last-wins,
// since shards and machines never run the same case: a case twice is two runs mixed up.
// docs/REPORTS.md, "Merging CSVs".
#include <iostream>
#include <unordered_map>

#include "gridfuzz/app/commands.hpp"
#include "gridfuzz/app/parse.hpp"
#include "gridfuzz/core/output_file.hpp"
#include "gridfuzz/reports/csv_document.hpp"
#include "gridfuzz/reports/csv_reader.hpp"
#include "gridfuzz/reports/row_set.hpp"
#include "gridfuzz/reports/schema.hpp"
#include "gridfuzz/reports/text_escape.hpp"

namespace gridfuzz::app {
namespace {

struct MergeArgs {
  std::string out;
  std::vector<std::string> inputs;
  bool last_wins = false;
};

int merge(const MergeArgs& a) {
  using reports::terminal_text;
  OutputFile out{a.out, "OUT", "a gridfuzz CSV", reports::starts_like_gridfuzz_csv, {}};
  for (const auto& in : a.inputs) out.inputs.emplace_back("an input CSV", in);
  check_output_file(out);

  std::vector<std::vector<reports::CsvRow>> files;
  std::unordered_map<std::string, std::size_t> first_file;  // row_key -> the input it was first met in
  for (const auto& path : a.inputs) {
    reports::CsvReadResult read = reports::read_csv(path);
    if (!read.ignored_columns.empty())
      throw UsageError(path + " has columns of a newer schema (" + read.ignored_columns.front() +
                       ", ...): merge with the gridfuzz that wrote it");
    if (read.dropped_partial_line)
      std::cerr << "note: " << terminal_text(path) << ": an unfinished last row (line " << *read.dropped_partial_line
                << ") is left out: its case did not finish\n";
    for (const auto& row : read.rows) {
      const auto [it, inserted] = first_file.emplace(reports::row_key(row), files.size());
      if (inserted) continue;
      if (!a.last_wins)
        throw UsageError("case " + row.get("case_id") + " of " + row.get("device") + " (" + row.get("kernel") + " " +
                         row.get("variant") + ") is in " + a.inputs[it->second] + " and in " + path +
                         ": two runs of one case; give --last-wins to keep the row of the file named last");
    }
    files.push_back(std::move(read.rows));
  }
  std::vector<std::string> notes;
  const std::vector<reports::CsvRow> rows = reports::merge_rows(std::move(files), &notes);
  for (const auto& note : notes) std::cerr << "note: " << terminal_text(note) << "\n";
  write_output_file(out, reports::csv_document(rows));
  std::cout << "merged " << a.inputs.size() << " file(s) into " << terminal_text(a.out) << ": " << rows.size()
            << " rows, schema " << reports::kSchemaVersion << "\n";
  return kOk;
}

}  // namespace

Runner add_merge_command(CLI::App& app, const GlobalOptions&) {
  auto a = std::make_shared<MergeArgs>();
  auto* cmd = app.add_subcommand("merge", "merge gridfuzz CSVs (shards, one file per machine) into one, a row per "
                                          "device and case, in the current schema");
  cmd->add_option("out", a->out, "the CSV to write (absent, empty, or a gridfuzz CSV that is not an input)")->required();
  cmd->add_option("inputs", a->inputs, "the CSVs to merge")->required();
  cmd->add_flag("--last-wins", a->last_wins,
                "a case met in several files keeps the row of the file named last (default: refused, exit 2)");
  return [a]() -> int { return merge(*a); };
}

}  // namespace gridfuzz::app
