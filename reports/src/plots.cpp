#include "gridfuzz/reports/plots.hpp"

#include <map>

#include "detail/plot_parts.hpp"
#include "gridfuzz/reports/gnuplot_script.hpp"
#include "gridfuzz/reports/two_axis_table.hpp"

namespace gridfuzz::reports {
namespace {

namespace fs = std::filesystem;

// "gguf.moe_vec" -> "moe_vec": kernels of several families with one operation name (our gguf
// port and vLLM's upstream build) share a timing picture, so ours can be read against theirs.
std::string operation_of(const std::string& kernel) {
  const auto dot = kernel.find('.');
  return dot == std::string::npos ? kernel : kernel.substr(dot + 1);
}

}  // namespace

PlotResult write_plots(const std::vector<CsvRow>& rows, const PlotOptions& options) {
  PlotResult result;
  const fs::path dir = options.out_dir / "plots";
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    result.notes.push_back("plots skipped: cannot create " + dir.string() + ": " + ec.message());
    return result;
  }
  std::map<std::pair<std::string, std::string>, std::vector<CsvRow>> by_kernel;  // kernel, device
  std::map<std::pair<std::string, std::string>, std::vector<const CsvRow*>> by_operation;
  for (const CsvRow& row : rows) {
    by_kernel[{row.get("kernel"), row.get("device")}].push_back(row);
    by_operation[{operation_of(row.get("kernel")), row.get("device")}].push_back(&row);
  }
  std::vector<detail::Drawing> drawings;
  const std::vector<TwoAxisTable> tables = two_axis_tables(rows);
  for (const auto& [key, members] : by_kernel) {
    if (auto d = detail::summary_picture(key.first, key.second, members, options.out_dir))
      drawings.push_back(std::move(*d));
    for (const TwoAxisTable& table : tables)
      if (table.kernel == key.first && table.device == key.second)
        if (auto d = detail::two_axis_picture(table, options.out_dir)) drawings.push_back(std::move(*d));
  }
  for (const auto& [key, members] : by_operation)
    if (auto d = detail::timing_picture(key.first, key.second, members, options.out_dir))
      drawings.push_back(std::move(*d));
  if (drawings.empty()) return result;

  const auto gnuplot = find_program(options.gnuplot);
  if (!gnuplot)
    result.notes.push_back("gnuplot not found (Debian package gnuplot-nox): plots not drawn; their scripts and data "
                           "are in " + dir.string() + " (run: gnuplot FILE.gp, from any folder)");
  const fs::path log = dir / "gnuplot.log";
  for (auto& d : drawings) {
    if (gnuplot) {
      d.plot.drawn = run_gnuplot(*gnuplot, d.script, log) && fs::exists(options.out_dir / d.plot.png);
      if (!d.plot.drawn) result.notes.push_back("gnuplot failed on " + d.script.string() + " (see " + log.string() + ")");
    }
    result.plots.push_back(d.plot);
  }
  return result;
}

}  // namespace gridfuzz::reports
