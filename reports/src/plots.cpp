#include "gridfuzz/reports/plots.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>

#include "detail/plot_parts.hpp"
#include "gridfuzz/core/output_file.hpp"
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

PlotResult write_plots(const std::vector<CsvRow>& rows, const PlotOptions& options, const fs::path& shown_dir) {
  const RowVector source(rows);
  return write_plots(RowFacts::of(source), source, options, shown_dir);
}

PlotResult write_plots(const RowFacts& facts, const RowSource& rows, const PlotOptions& options,
                       const fs::path& shown_dir) {
  PlotResult result;
  const fs::path dir = options.out_dir / "plots";
  const fs::path shown = shown_dir.empty() ? options.out_dir : shown_dir;
  std::error_code ec;
  fs::create_directories(options.out_dir, ec);
  // plots/ is new (never a folder or link someone made): every file in it is gridfuzz's.
  const bool made = !ec && fs::create_directory(dir, ec);
  if (!made) {
    result.notes.push_back("plots skipped: cannot create " + (shown / "plots").string() + ": " +
                           (ec ? ec.message() : std::string("it exists already")));
    return result;
  }
  // Per kernel x device its lines and variants; per operation x device its timed rows.
  const std::vector<AxisLine> lines = axis_lines(facts, LineChoice::beside_two_points);
  std::map<std::pair<std::string, std::string>, std::vector<const AxisLine*>> lines_of;
  for (const AxisLine& line : lines) lines_of[{line.kernel, line.device}].push_back(&line);
  std::map<std::pair<std::string, std::string>, std::vector<std::uint32_t>> by_operation;
  for (std::uint32_t t = 0; t < facts.timings().size(); ++t) {
    const RowFacts::Group& g = facts.group(facts.row(facts.timings()[t].position).group);
    by_operation[{operation_of(std::string(facts.text(g.kernel))), std::string(facts.text(g.device))}].push_back(t);
  }
  std::vector<detail::Drawing> drawings;
  const std::vector<TwoAxisTable> tables = two_axis_tables(facts, rows);
  for (const auto& [key, variants] : facts.variants_in_order()) {
    if (auto d = detail::summary_picture(key.first, key.second, variants, lines_of[key], options.out_dir, shown))
      drawings.push_back(std::move(*d));
    for (const TwoAxisTable& table : tables)
      if (table.kernel == key.first && table.device == key.second)
        if (auto d = detail::two_axis_picture(table, options.out_dir, shown)) drawings.push_back(std::move(*d));
  }
  for (const auto& [key, timings] : by_operation)
    if (auto d = detail::timing_picture(key.first, key.second, facts, timings, options.out_dir, shown))
      drawings.push_back(std::move(*d));
  if (drawings.empty()) return result;

  auto gnuplot = find_program(options.gnuplot);
  if (!gnuplot)
    result.notes.push_back("gnuplot not found (Debian package gnuplot-nox): plots not drawn; their scripts and data "
                           "are in " + (shown / "plots").string() + " (run: gnuplot FILE.gp, from any folder)");
  const fs::path log = dir / "gnuplot.log", shown_log = shown / "plots" / "gnuplot.log";
  const int log_fd = gnuplot ? create_new_file(log, O_WRONLY | O_APPEND) : -1;
  if (gnuplot && log_fd < 0) {
    result.notes.push_back("plots not drawn: cannot create " + shown_log.string() + ": " + std::strerror(errno));
    gnuplot.reset();
  }
  for (auto& d : drawings) {
    if (gnuplot) {
      d.plot.drawn = run_gnuplot(*gnuplot, d.text, dir, log_fd) && fs::exists(options.out_dir / d.plot.png);
      if (!d.plot.drawn)
        result.notes.push_back("gnuplot failed on " + (shown / "plots" / d.script.filename()).string() + " (see " +
                               shown_log.string() + ")");
    }
    result.plots.push_back(d.plot);
  }
  if (log_fd >= 0) ::close(log_fd);
  return result;
}

}  // namespace gridfuzz::reports
