// `gridfuzz report CSV... [--out DIR]`: merges the CSVs (shards, or runs on several devices) and
// prints the report as Markdown; with --out also writes DIR/report.md, DIR/junit.xml and the
// plots (DIR/plots). Exit 0, or 2 for a CSV it cannot read (missing, corrupt, other schema).
//
// DIR is written whole (core/output_file.hpp, FreshFolder): in a private folder beside it, then
// renamed into place. DIR must be new, empty, or a report folder gridfuzz wrote (it holds
// .gridfuzz-report and only the files report writes), which is then replaced; anything else is
// exit 2 and left as it is (docs/REPORTS.md, "The report folder").
#include <filesystem>
#include <iostream>
#include <optional>
#include <set>

#include "gridfuzz/app/commands.hpp"
#include "gridfuzz/reports/case_outcome.hpp"
#include "gridfuzz/reports/junit.hpp"
#include "gridfuzz/reports/ledger_matches.hpp"
#include "gridfuzz/reports/plots.hpp"
#include "gridfuzz/reports/report_data.hpp"
#include "gridfuzz/reports/report_markdown.hpp"
#include "gridfuzz/reports/row_files.hpp"
#include "gridfuzz/reports/text_escape.hpp"
#include "gridfuzz/app/ledger_file.hpp"
#include "gridfuzz/app/parse.hpp"
#include "gridfuzz/core/output_file.hpp"

namespace gridfuzz::app {
namespace {

struct ReportArgs {
  std::vector<std::string> csvs;
  std::string out_dir;
  std::size_t slowest = 10;
  bool no_plots = false;
  bool device_slugs = false;
  std::string gnuplot = "gnuplot";
  std::string ledger;
};

// The file in a report folder that says gridfuzz wrote it.
constexpr const char* kReportMarker = ".gridfuzz-report";
constexpr const char* kReportMarkerText =
    "This folder was written by `gridfuzz report --out`. The next report into it replaces it whole;\n"
    "a folder without this file, or with files report does not write, is never replaced.\n";

// What report writes into its folder: report.md, junit.xml, plots/ and, in plots/, the data,
// scripts and pictures of each plot and gnuplot's log.
bool report_writes(const std::filesystem::path& relative, bool is_folder) {
  if (relative == "report.md" || relative == "junit.xml") return !is_folder;
  if (relative == "plots") return is_folder;
  if (is_folder || relative.parent_path() != "plots") return false;
  const std::filesystem::path ext = relative.extension();
  return ext == ".gp" || ext == ".dat" || ext == ".png" || ext == ".svg" || relative.filename() == "gnuplot.log";
}

FreshFolder::Rules report_folder_rules(const std::vector<std::string>& csvs) {
  FreshFolder::Rules rules{"--out", kReportMarker, kReportMarkerText, report_writes, {}};
  for (const auto& csv : csvs) rules.inputs.emplace_back("the CSV", csv);
  return rules;
}

// A file of the new folder (nothing else is in it).
void write_new(const std::filesystem::path& path, const std::string& text) {
  write_output_file(OutputFile{path, "--out", "", {}, {}, true}, text);
}

}  // namespace

Runner add_report_command(CLI::App& app, const GlobalOptions&) {
  auto a = std::make_shared<ReportArgs>();
  auto* cmd = app.add_subcommand("report", "report of one or more sweep CSVs: verdicts, boundaries, slowest cases, "
                                           "JUnit XML and plots");
  cmd->add_option("csv", a->csvs, "CSV files to merge (shards of a sweep, or runs on several devices)")->required();
  cmd->add_option("--out", a->out_dir, "also write report.md, junit.xml and plots/ into this folder");
  cmd->add_option("--slowest", a->slowest, "slowest cases listed (default 10)")->check(whole_number(1u << 30));
  cmd->add_flag("--no-plots", a->no_plots, "do not write or draw plots");
  cmd->add_option("--gnuplot", a->gnuplot, "gnuplot program (default: gnuplot from PATH)");
  cmd->add_option("--ledger", a->ledger,
                  "the known-failure ledger whose findings the rows should match (default: "
                  "properties/known-failures.txt); an entry they reached but none matched is said");
  cmd->add_flag("--device-slugs", a->device_slugs,
                "print only the devices of the rows as baseline file names (baselines/<slug>.csv), one a line");
  return [a]() -> int {
    std::vector<std::filesystem::path> paths(a->csvs.begin(), a->csvs.end());
    // The rows stay in the files: a first read merges them and keeps where each row is, the
    // sections are gathered in one more (report_data.hpp), and a few rows are read again to be shown.
    std::optional<reports::RowFiles> rows;
    try {
      rows.emplace(reports::RowFiles::load(paths));
    } catch (const reports::CsvError& e) {
      std::cerr << "gridfuzz report: cannot use this CSV: " << reports::terminal_text(e.what()) << "\n";
      return e.is_io() ? kEnvironment : kUsage;
    }
    if (a->device_slugs) {
      std::set<std::string> slugs;
      for (const auto& device : rows->devices()) slugs.insert(reports::device_slug(device));
      for (const auto& s : slugs) std::cout << s << "\n";
      return kOk;
    }
    reports::ReportInput input;
    input.sources = rows->sources();
    input.notes = rows->notes();
    input.slowest = a->slowest;
    // Read before anything is written: a bad entry is exit 2 with nothing changed.
    const LedgerFile ledger = load_ledger_file(a->ledger);
    // The folder is checked (and its staging folder made) before the rows are gathered: a folder
    // that may not be written is exit 2 at once.
    std::optional<FreshFolder> folder;
    if (!a->out_dir.empty()) folder.emplace(a->out_dir, report_folder_rules(a->csvs));
    const reports::ReportData data =
        reports::gather_report(*rows, input.slowest, input.max_failures_listed, ledger.ledger);
    if (!ledger.path.empty())
      if (const std::string line = reports::unmatched_line(data.ledger.matches(), ledger.path); !line.empty()) {
        std::cerr << "note: " << reports::terminal_text(line) << "\n";
        input.notes.push_back(line);
      }
    if (folder) {
      const std::filesystem::path dir = folder->target(), staging = folder->staging();
      if (!a->no_plots) {
        reports::PlotOptions options{staging, a->gnuplot};
        reports::PlotResult plots = reports::write_plots(data.facts, *rows, options, dir);
        for (const auto& note : plots.notes) std::cerr << "note: " << reports::terminal_text(note) << "\n";
        input.notes.insert(input.notes.end(), plots.notes.begin(), plots.notes.end());
        input.plots = std::move(plots.plots);
      }
      const std::string markdown = reports::render_markdown(input, data, *rows);
      write_new(staging / "report.md", markdown);
      // A file per row: written as it is made, never held whole.
      NewOutputFile junit(OutputFile{staging / "junit.xml", "--out", "", {}, {}, true});
      reports::write_junit(data.facts, *rows, data.junit, [&](std::string_view piece) { junit.write(piece); });
      junit.close();
      for (const auto& note : folder->commit()) std::cerr << "note: " << reports::terminal_text(note) << "\n";
      std::cout << markdown;
      std::size_t drawn = 0;
      for (const auto& plot : input.plots) drawn += plot.drawn;
      std::cerr << "report: " << (dir / "report.md").string() << ", " << (dir / "junit.xml").string();
      if (!input.plots.empty())
        std::cerr << ", " << drawn << " of " << input.plots.size() << " plots drawn in " << (dir / "plots").string()
                  << " (redraw one from any folder: gnuplot " << (dir / "plots").string() << "/NAME.gp)";
      std::cerr << "\n";
      return kOk;
    }
    std::cout << reports::render_markdown(input, data, *rows);
    return kOk;
  };
}

}  // namespace gridfuzz::app
