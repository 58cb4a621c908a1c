#include "gridfuzz/reports/plots.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "gridfuzz/reports/case_outcome.hpp"
#include "gridfuzz/reports/run_summary.hpp"
#include "gridfuzz/reports/text_escape.hpp"
#include "gridfuzz/reports/timing_compare.hpp"

extern char** environ;

namespace gridfuzz::reports {
namespace {

namespace fs = std::filesystem;

struct Category {
  const char* name;
  const char* colour;
};

// Cells are coloured by what the case says; static rows (nothing ran) by what the model says.
constexpr Category kCategories[] = {
    {"pass", "#2ca02c"},           {"expected-fail", "#ff7f0e"},           {"fail", "#d62728"},
    {"model-mismatch", "#9467bd"}, {"unexpected-pass", "#e377c2"},         {"skipped", "#7f7f7f"},
    {"static, predicted pass", "#9ecae1"}, {"static, predicted fail", "#08519c"},
};

std::string category_of(const CsvRow& row) {
  const std::string& verdict = row.get("verdict");
  if (verdict.rfind("fail:", 0) == 0) return "fail";
  if (verdict == "static") return predicted_fails(row) ? "static, predicted fail" : "static, predicted pass";
  return verdict;
}

std::string file_slug(const std::string& text) {
  std::string slug;
  for (char c : text) slug += (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_') ? c : '-';
  return slug;
}

using Axes = std::map<std::string, std::string>;

std::optional<long double> number(const Axes& axes, const std::string& name) {
  const auto it = axes.find(name);
  if (it == axes.end()) return std::nullopt;
  const auto v = parse_int(it->second);
  if (!v) return std::nullopt;
  return static_cast<long double>(*v);
}

// Integer axes with at least two distinct values, most distinct first; tokens leads when present.
std::vector<std::string> varying_axes(const std::vector<std::pair<const CsvRow*, Axes>>& points) {
  std::map<std::string, std::set<std::string>> values;
  for (const auto& [row, axes] : points)
    for (const auto& [name, value] : axes)
      if (parse_int(value)) values[name].insert(value);
  std::vector<std::pair<std::size_t, std::string>> ranked;
  for (const auto& [name, set] : values)
    if (set.size() >= 2) ranked.emplace_back(set.size(), name);
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    const auto rank = [](const std::string& n) { return n == "tokens" ? 0 : (n == "top_k" || n == "vocab") ? 1 : 2; };
    if (rank(a.second) != rank(b.second)) return rank(a.second) < rank(b.second);
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  std::vector<std::string> names;
  for (const auto& r : ranked) names.push_back(r.second);
  return names;
}

// A non-negative integral value as decimal digits (gnuplot and titles read them exactly).
std::string integer_text(long double v) { return std::to_string(static_cast<unsigned long long>(v)); }

struct Range {
  long double lo = 0, hi = 0;
  void add(long double v, bool first) {
    if (first || v < lo) lo = v;
    if (first || v > hi) hi = v;
  }
};

// Axis settings: log scale when the values span more than two decades, and a margin around them.
std::string axis_settings(const char* axis, const Range& r) {
  std::ostringstream out;
  const bool log = r.lo > 0 && r.hi / r.lo > 100;
  if (log) {
    out << "set logscale " << axis << "\n";
    out << "set " << axis << "range [" << static_cast<double>(r.lo / 1.6) << ":" << static_cast<double>(r.hi * 1.6)
        << "]\n";
  } else {
    const long double pad = std::max<long double>((r.hi - r.lo) * 0.08, 1);
    out << "set " << axis << "range [" << static_cast<double>(r.lo - pad) << ":" << static_cast<double>(r.hi + pad)
        << "]\n";
  }
  return out.str();
}

std::string terminals_and_plot(const fs::path& png, const fs::path& svg, const std::string& plot_command) {
  std::ostringstream gp;
  gp << "set terminal pngcairo size 1000,700 noenhanced\nset output " << gnuplot_string(png.string()) << "\n"
     << plot_command << "\nset terminal svg size 1000,700 noenhanced\nset output " << gnuplot_string(svg.string())
     << "\nreplot\nset output\n";
  return gp.str();
}

// Runs `gnuplot script` with its output in log; true when it exits 0.
bool run_gnuplot(const fs::path& program, const fs::path& script, const fs::path& log) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  std::string arg0 = program.string(), arg1 = script.string();
  char* argv[] = {arg0.data(), arg1.data(), nullptr};
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return false;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return false;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

struct Drawing {
  Plot plot;
  fs::path script;
};

std::optional<Drawing> boundary_map(const GroupKey& group, const std::vector<const CsvRow*>& rows,
                                    const fs::path& out_dir) {
  std::vector<std::pair<const CsvRow*, Axes>> points;
  for (const CsvRow* row : rows) points.emplace_back(row, case_axes(*row));
  const auto axes = varying_axes(points);
  if (axes.size() < 2) return std::nullopt;  // one axis: the boundary table says it all
  const std::string& x_axis = axes[0];
  const std::string& y_axis = axes[1];

  const auto& [kernel, variant, device] = group;
  const std::string stem = file_slug(kernel + "-" + variant + "-" + device_slug(device) + "-map");
  const fs::path dir = out_dir / "plots";
  const fs::path data_path = dir / (stem + ".dat");
  std::ostringstream data;
  std::vector<std::string> blocks;
  Range xr, yr;
  bool first = true;
  for (const Category& category : kCategories) {
    std::ostringstream block;
    std::size_t n = 0;
    for (const auto& [row, values] : points) {
      const auto x = number(values, x_axis), y = number(values, y_axis);
      if (!x || !y || category_of(*row) != category.name) continue;
      block << static_cast<double>(*x) << " " << static_cast<double>(*y) << "\n";
      xr.add(*x, first);
      yr.add(*y, first);
      first = false;
      ++n;
    }
    if (n == 0) continue;
    data << "# " << category.name << "\n" << block.str() << "\n\n";
    blocks.push_back(gnuplot_string(data_path.string()) + " index " + std::to_string(blocks.size()) +
                     " using 1:2 with points pt 5 ps 1.0 lc rgb '" + category.colour + "' title '" + category.name +
                     "'");
  }
  if (blocks.empty()) return std::nullopt;

  std::vector<CsvRow> plain;
  for (const CsvRow* row : rows) plain.push_back(*row);
  std::ostringstream gp;
  gp << "set title " << gnuplot_string(kernel + " " + variant + " on " + device + ": verdict by " + x_axis + " x " + y_axis)
     << "\nset xlabel " << gnuplot_string(x_axis) << "\nset ylabel " << gnuplot_string(y_axis)
     << "\nset key below\nset grid\nset samples 1000\n"
     << axis_settings("x", xr) << axis_settings("y", yr);
  std::string plot = "plot ";
  for (std::size_t i = 0; i < blocks.size(); ++i) plot += (i ? ", \\\n     " : "") + blocks[i];
  if (const auto limit = product_limit(plain, x_axis, y_axis)) {
    // The model's limit as a curve: x*y at the last predicted pass (the first fail lies above it).
    gp << "limit(x) = " << integer_text(limit->last_pass) << ".0 / x\n";
    std::ostringstream title;
    // Products of two int64 axes fit a long double exactly below 2^64: print them as integers.
    title << "predicted limit (" << limit->rule << "): " << x_axis << "*" << y_axis << " <= "
          << integer_text(limit->last_pass) << ", fails from " << integer_text(limit->first_fail);
    plot += ", \\\n     limit(x) with lines lw 2 dt 2 lc rgb 'black' title " + gnuplot_string(title.str());
  }
  gp << terminals_and_plot(dir / (stem + ".png"), dir / (stem + ".svg"), plot);

  std::ofstream(data_path) << data.str();
  const fs::path script = dir / (stem + ".gp");
  std::ofstream(script) << gp.str();
  Drawing d;
  d.plot.title = kernel + " " + variant + " on " + device + ": boundary map (" + x_axis + " x " + y_axis + ")";
  d.plot.png = "plots/" + stem + ".png";
  d.plot.svg = "plots/" + stem + ".svg";
  d.script = script;
  return d;
}

// Time of each variant along the axis that varies most among the kernel's timed rows, on the
// line (other axes fixed) that the most variants share.
std::optional<Drawing> timing_curves(const std::string& kernel, const std::string& device,
                                     const std::vector<const CsvRow*>& rows, const fs::path& out_dir) {
  std::vector<std::pair<const CsvRow*, Axes>> points;
  for (const CsvRow* row : rows)
    if (timing_of(*row)) points.emplace_back(row, case_axes(*row));
  const auto axes = varying_axes(points);
  if (axes.empty()) return std::nullopt;
  const std::string& axis = axes[0];

  // along -> variant -> value -> row
  std::map<std::string, std::map<std::string, std::map<long double, const CsvRow*>>> lines;
  for (const auto& [row, values] : points) {
    const auto v = number(values, axis);
    if (!v) continue;
    std::string along;
    for (const auto& [name, value] : values)
      if (name != axis) along += (along.empty() ? "" : ",") + name + "=" + value;
    lines[along][row->get("variant")].emplace(*v, row);
  }
  const std::map<std::string, std::map<long double, const CsvRow*>>* best = nullptr;
  std::string best_along;
  std::pair<std::size_t, std::size_t> best_score{0, 0};
  for (const auto& [along, variants] : lines) {
    std::pair<std::size_t, std::size_t> score{0, 0};
    for (const auto& [variant, values] : variants) {
      score.first += values.size() >= 2;
      score.second += values.size();
    }
    if (score > best_score) {
      best_score = score;
      best = &variants;
      best_along = along;
    }
  }
  if (!best || best_score.first == 0) return std::nullopt;

  const std::string stem = file_slug(kernel + "-" + device_slug(device) + "-timing");
  const fs::path dir = out_dir / "plots";
  const fs::path data_path = dir / (stem + ".dat");
  std::ostringstream data;
  std::string plot = "plot ";
  Range xr;
  bool first = true;
  std::size_t index = 0;
  for (const auto& [variant, values] : *best) {
    data << "# " << gnuplot_string(variant) << ": " << gnuplot_string(axis) << " median_ms min_ms max_ms\n";
    for (const auto& [v, row] : values) {
      const auto t = *timing_of(*row);
      data << static_cast<double>(v) << " " << t.median_ms << " " << t.min_ms << " " << t.max_ms << "\n";
      xr.add(v, first);
      first = false;
    }
    data << "\n\n";
    plot += (index ? ", \\\n     " : "") + gnuplot_string(data_path.string()) + " index " + std::to_string(index) +
            " using 1:2:3:4 with yerrorlines pt 7 title " + gnuplot_string(variant);
    ++index;
  }
  std::ostringstream gp;
  // The line's other axes go to report.md (the plot's title there): too long for the picture.
  gp << "set title " << gnuplot_string(kernel + " on " + device + ": median time by " + axis)
     << "\nset xlabel " << gnuplot_string(axis) << "\nset ylabel 'time per call, ms (median, bars min..max)'"
     << "\nset key outside right top\nset grid\n"
     << axis_settings("x", xr) << "set logscale y\n";
  gp << terminals_and_plot(dir / (stem + ".png"), dir / (stem + ".svg"), plot);
  std::ofstream(data_path) << data.str();
  const fs::path script = dir / (stem + ".gp");
  std::ofstream(script) << gp.str();
  Drawing d;
  d.plot.title = kernel + " on " + device + ": time by " + axis + " per variant (along " + best_along + ")";
  d.plot.png = "plots/" + stem + ".png";
  d.plot.svg = "plots/" + stem + ".svg";
  d.script = script;
  return d;
}

}  // namespace

std::optional<fs::path> find_program(const std::string& name) {
  if (name.empty()) return std::nullopt;
  if (name.find('/') != std::string::npos)
    return access(name.c_str(), X_OK) == 0 ? std::optional<fs::path>(name) : std::nullopt;
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const fs::path candidate = fs::path(dir.empty() ? "." : dir) / name;
    if (access(candidate.c_str(), X_OK) == 0 && !fs::is_directory(candidate)) return candidate;
  }
  return std::nullopt;
}

std::optional<ProductLimit> product_limit(const std::vector<CsvRow>& rows, const std::string& x_axis,
                                          const std::string& y_axis) {
  std::optional<long double> max_pass;
  std::map<std::string, std::pair<long double, std::size_t>> fails;  // prediction -> min product, rows
  for (const CsvRow& row : rows) {
    const Axes axes = case_axes(row);
    const auto x = number(axes, x_axis), y = number(axes, y_axis);
    if (!x || !y) continue;
    const long double product = *x * *y;
    if (!predicted_fails(row)) {
      max_pass = max_pass ? std::max(*max_pass, product) : product;
      continue;
    }
    const std::string& predicted = row.get("predicted");
    const std::string why = predicted == "accept" ? row.get("index_wrap") : predicted;
    auto [it, inserted] = fails.emplace(why, std::make_pair(product, std::size_t{0}));
    it->second.first = std::min(it->second.first, product);
    ++it->second.second;
  }
  if (!max_pass) return std::nullopt;
  std::optional<ProductLimit> best;
  std::size_t best_rows = 0;
  for (const auto& [why, fail] : fails)
    if (*max_pass < fail.first && fail.second > best_rows) {
      best = ProductLimit{*max_pass, fail.first, why};
      best_rows = fail.second;
    }
  return best;
}

PlotResult write_plots(const std::vector<CsvRow>& rows, const PlotOptions& options) {
  PlotResult result;
  std::map<GroupKey, std::vector<const CsvRow*>> groups;
  std::map<std::pair<std::string, std::string>, std::vector<const CsvRow*>> by_kernel;
  for (const CsvRow& row : rows) {
    groups[group_of(row)].push_back(&row);
    by_kernel[{row.get("kernel"), row.get("device")}].push_back(&row);
  }
  std::vector<Drawing> drawings;
  std::error_code ec;
  fs::create_directories(options.out_dir / "plots", ec);
  if (ec) {
    result.notes.push_back("plots skipped: cannot create " + (options.out_dir / "plots").string() + ": " + ec.message());
    return result;
  }
  for (const auto& [group, members] : groups)
    if (auto d = boundary_map(group, members, options.out_dir)) drawings.push_back(std::move(*d));
  for (const auto& [key, members] : by_kernel)
    if (auto d = timing_curves(key.first, key.second, members, options.out_dir)) drawings.push_back(std::move(*d));
  if (drawings.empty()) return result;

  const auto gnuplot = find_program(options.gnuplot);
  if (!gnuplot)
    result.notes.push_back("gnuplot not found (Debian package gnuplot-nox): plots not drawn; their scripts and data "
                           "are in " + (options.out_dir / "plots").string() + " (run: gnuplot FILE.gp)");
  const fs::path log = options.out_dir / "plots" / "gnuplot.log";
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
