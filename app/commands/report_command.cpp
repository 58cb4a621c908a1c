// `gridfuzz report CSV... [--out DIR]`: merges the CSVs (shards, or runs on several devices) and
// prints the report as Markdown; with --out also writes DIR/report.md, DIR/junit.xml and the
// plots (DIR/plots). Exit 0, or 2 for a CSV it cannot read (missing, corrupt, other schema).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>

#include "gridfuzz/app/commands.hpp"
#include "gridfuzz/reports/case_outcome.hpp"
#include "gridfuzz/reports/junit.hpp"
#include "gridfuzz/reports/plots.hpp"
#include "gridfuzz/reports/report_markdown.hpp"
#include "gridfuzz/reports/row_set.hpp"
#include "gridfuzz/reports/text_escape.hpp"
#include "gridfuzz/app/parse.hpp"

namespace gridfuzz::app {
namespace {

struct ReportArgs {
  std::vector<std::string> csvs;
  std::string out_dir;
  std::size_t slowest = 10;
  bool no_plots = false;
  bool device_slugs = false;
  std::string gnuplot = "gnuplot";
};

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << text;
  if (!file.flush()) throw std::runtime_error("cannot write " + path.string());
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
  cmd->add_flag("--device-slugs", a->device_slugs,
                "print only the devices of the rows as baseline file names (baselines/<slug>.csv), one a line");
  return [a]() -> int {
    std::vector<std::filesystem::path> paths(a->csvs.begin(), a->csvs.end());
    reports::RowSet set;
    try {
      set = reports::load_row_set(paths);
    } catch (const reports::CsvError& e) {
      std::cerr << "gridfuzz report: cannot use this CSV: " << reports::terminal_text(e.what()) << "\n";
      return e.is_io() ? kEnvironment : kUsage;
    }
    if (a->device_slugs) {
      std::set<std::string> slugs;
      for (const auto& row : set.rows) slugs.insert(reports::device_slug(row.get("device")));
      for (const auto& s : slugs) std::cout << s << "\n";
      return kOk;
    }
    reports::ReportInput input;
    input.sources = set.sources;
    input.notes = set.notes;
    input.slowest = a->slowest;
    if (!a->out_dir.empty()) {
      const std::filesystem::path dir(a->out_dir);
      std::error_code ec;
      if (std::filesystem::exists(dir, ec) && !std::filesystem::is_directory(dir, ec))
        throw UsageError("--out " + a->out_dir + " exists and is not a folder");
      std::filesystem::create_directories(dir, ec);
      if (ec) throw UsageError("--out " + a->out_dir + ": cannot create the folder: " + ec.message());
      if (!a->no_plots) {
        reports::PlotOptions options{dir, a->gnuplot};
        reports::PlotResult plots = reports::write_plots(set.rows, options);
        for (const auto& note : plots.notes) std::cerr << "note: " << note << "\n";
        input.notes.insert(input.notes.end(), plots.notes.begin(), plots.notes.end());
        input.plots = std::move(plots.plots);
      }
      input.rows = set.rows;
      const std::string markdown = reports::render_markdown(input);
      write_file(dir / "report.md", markdown);
      write_file(dir / "junit.xml", reports::render_junit(set.rows));
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
    input.rows = std::move(set.rows);
    std::cout << reports::render_markdown(input);
    return kOk;
  };
}

}  // namespace gridfuzz::app
