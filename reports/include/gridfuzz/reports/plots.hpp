#pragma once
// Plots for the report, drawn by gnuplot: per kernel x variant x device a boundary map (the two
// integer axes that vary most, tokens first; each case a cell coloured by its verdict; the
// predicted limit drawn over them, found from the rows' predicted outcomes), and per kernel x
// device the time of each variant along one axis (legacy vs fixed).
//
// The data files and gnuplot scripts are always written (under DIR/plots), so the plots can be
// drawn later; gnuplot runs only when it is found on PATH. A missing or failing gnuplot is a
// note, never an error: plots must not fail a report.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "gridfuzz/reports/csv_row.hpp"

namespace gridfuzz::reports {

struct PlotOptions {
  std::filesystem::path out_dir;  // the report folder; files go to out_dir/plots
  std::string gnuplot = "gnuplot";
};

struct Plot {
  std::string title;
  std::string png, svg;  // relative to out_dir, e.g. "plots/gguf.moe_vec-legacy-nvidia-h200-map.png"
  bool drawn = false;    // false: the script and data are there, gnuplot did not run or failed
};

struct PlotResult {
  std::vector<Plot> plots;
  std::vector<std::string> notes;  // gnuplot missing, a script that failed
};

PlotResult write_plots(const std::vector<CsvRow>& rows, const PlotOptions& options);

// The program's full path from PATH (or the name itself when it holds a '/' and is executable).
std::optional<std::filesystem::path> find_program(const std::string& name);

// The predicted limit on the product of two axes, from the rows' predicted outcomes: for one
// failing prediction (e.g. refuse:grid.z), every predicted pass has x*y <= last_pass and every
// row failing that way has x*y >= first_fail. Rows failing for another reason (an index that
// wraps because of a third axis) do not break it. The prediction with the most rows wins.
struct ProductLimit {
  long double last_pass = 0, first_fail = 0;
  std::string rule;  // the predicted text of the failing rows: "refuse:grid.z"
};
std::optional<ProductLimit> product_limit(const std::vector<CsvRow>& rows, const std::string& x_axis,
                                          const std::string& y_axis);

}  // namespace gridfuzz::reports
