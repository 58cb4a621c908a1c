#pragma once
// Plots for the report, drawn by gnuplot (docs/REPORTS.md, "Plots"):
// - per kernel x device one summary picture: a panel per axis with a boundary line, a row per
//   variant on one shared value axis, each case marked by outcome;
// - per kernel x device x pair (tokens x vocab, top_k, experts) the first failing tokens for each
//   value of the other axis (two_axis_table.hpp);
// - per operation x device (gguf.moe_vec and vllm.moe_vec together) the time of each variant by
//   tokens with a ratio panel (fixed/legacy, chunked/upstream, ours/upstream).
//
// The data files and gnuplot scripts are always written (under DIR/plots) and find their data
// beside themselves, so they can be drawn later from any folder; gnuplot runs only when it is
// found, reading each script from a pipe. A missing or failing gnuplot is a note, never an
// error: plots must not fail a report.
//
// Every file is created new (core/output_file.hpp), and gnuplot writes its pictures by path:
// out_dir must be a folder only gridfuzz writes into, as `report --out` gives it (FreshFolder's
// private staging folder).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "gridfuzz/reports/csv_row.hpp"
#include "gridfuzz/reports/gnuplot_script.hpp"
#include "gridfuzz/reports/row_facts.hpp"
#include "gridfuzz/reports/row_source.hpp"

namespace gridfuzz::reports {

struct PlotOptions {
  std::filesystem::path out_dir;  // the report folder; files go to out_dir/plots
  std::string gnuplot = "gnuplot";
};

struct Plot {
  std::string title;
  std::string png, svg;  // relative to out_dir, e.g. "plots/gguf.moe_vec-nvidia-h200-summary.png"
  bool drawn = false;    // false: the script and data are there, gnuplot did not run or failed
};

struct PlotResult {
  std::vector<Plot> plots;
  std::vector<std::string> notes;  // gnuplot missing, a script that failed
};

// `shown_dir`: where out_dir will be once in place (report --out renames its staging folder): the
// folder named in notes, and the one a script piped into gnuplot later draws in. Empty: out_dir.
// `rows` are the facts' rows (a two-axis table's rule is read from its row).
PlotResult write_plots(const RowFacts& facts, const RowSource& rows, const PlotOptions& options,
                       const std::filesystem::path& shown_dir = {});
PlotResult write_plots(const std::vector<CsvRow>& rows, const PlotOptions& options,
                       const std::filesystem::path& shown_dir = {});

}  // namespace gridfuzz::reports
