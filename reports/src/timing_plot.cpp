// Time by tokens for every variant of the kernels of one operation (gguf.moe_vec with
// vllm.moe_vec: ours and upstream's), from the timed rows, with a ratio panel below on the same
// x scale: each variant over its kernel's reference (legacy, or upstream), and ours (fixed) over
// upstream where both ran the same shape.
#include <algorithm>
#include <sstream>

#include "detail/plot_parts.hpp"
#include "gridfuzz/reports/case_outcome.hpp"
#include "gridfuzz/reports/gnuplot_script.hpp"
#include "gridfuzz/reports/text_escape.hpp"
#include "gridfuzz/reports/timing_compare.hpp"

namespace gridfuzz::reports::detail {
namespace {

namespace fs = std::filesystem;

using Curve = std::pair<std::string, std::string>;  // kernel, variant
using Points = std::map<std::int64_t, TimingSamples>;

constexpr const char* kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                    "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"};

struct Ratio {
  std::string title;
  std::size_t colour = 0;
  bool against_upstream = false;
  std::vector<std::pair<std::int64_t, double>> points;
};

std::string timing_axis(const std::vector<std::pair<const CsvRow*, std::map<std::string, std::string>>>& points) {
  std::map<std::string, std::set<std::int64_t>> values;
  for (const auto& [row, axes] : points)
    for (const auto& [name, value] : axes)
      if (const auto v = parse_int(value)) values[name].insert(*v);
  if (values["tokens"].size() >= 2) return "tokens";
  std::string best;
  std::size_t most = 1;
  for (const auto& [name, set] : values)
    if (set.size() > most) {
      most = set.size();
      best = name;
    }
  return best;
}

}  // namespace

std::optional<Drawing> timing_picture(const std::string& operation, const std::string& device,
                                      const std::vector<const CsvRow*>& rows, const fs::path& out_dir,
                                      const fs::path& shown_dir) {
  std::vector<std::pair<const CsvRow*, std::map<std::string, std::string>>> timed;
  for (const CsvRow* row : rows)
    if (timing_of(*row)) timed.emplace_back(row, case_axes(*row));
  const std::string axis = timing_axis(timed);
  if (axis.empty()) return std::nullopt;

  // along (the other axes) -> curve -> value -> timing; curves in the rows' order.
  std::map<std::string, std::map<Curve, Points>> lines;
  std::vector<Curve> order;
  for (const auto& [row, axes] : timed) {
    const auto it = axes.find(axis);
    const auto v = it == axes.end() ? std::nullopt : parse_int(it->second);
    if (!v) continue;
    std::string along;
    for (const auto& [name, value] : axes)
      if (name != axis) along += (along.empty() ? "" : ",") + name + "=" + value;
    const Curve curve{row->get("kernel"), row->get("variant")};
    lines[along][curve].emplace(*v, *timing_of(*row));
    if (std::find(order.begin(), order.end(), curve) == order.end()) order.push_back(curve);
  }
  // The line that the most curves cover with two points or more; ties: the most points.
  const std::map<Curve, Points>* best = nullptr;
  std::string best_along;
  std::pair<std::size_t, std::size_t> best_score{0, 0};
  for (const auto& [along, curves] : lines) {
    std::pair<std::size_t, std::size_t> score{0, 0};
    for (const auto& [curve, points] : curves) {
      score.first += points.size() >= 2;
      score.second += points.size();
    }
    if (score > best_score) {
      best_score = score;
      best = &curves;
      best_along = along;
    }
  }
  if (!best || best_score.first == 0) return std::nullopt;

  std::set<std::string> kernels;
  for (const auto& [curve, points] : *best) kernels.insert(curve.first);
  const auto name_of = [&](const Curve& c) { return kernels.size() > 1 ? c.first + " " + c.second : c.second; };
  std::vector<Curve> curves;
  for (const Curve& c : order)
    if (best->count(c)) curves.push_back(c);
  std::map<Curve, std::size_t> colour;
  for (std::size_t i = 0; i < curves.size(); ++i) colour[curves[i]] = i % std::size(kColours);

  // Ratios: over the kernel's reference variant, and ours over upstream's (same shape).
  std::vector<Ratio> ratios;
  const auto ratio_of = [&](const Curve& top, const Curve& bottom, bool upstream) {
    Ratio r;
    r.title = name_of(top) + " / " + name_of(bottom);
    r.colour = colour[top];
    r.against_upstream = upstream;
    const Points& a = best->at(top);
    const Points& b = best->at(bottom);
    for (const auto& [v, t] : a)
      if (const auto it = b.find(v); it != b.end() && it->second.median_ms > 0)
        r.points.emplace_back(v, t.median_ms / it->second.median_ms);
    if (!r.points.empty()) ratios.push_back(std::move(r));
  };
  for (const Curve& c : curves) {
    for (const char* reference : {"legacy", "upstream"}) {
      const Curve ref{c.first, reference};
      if (best->count(ref)) {
        if (c != ref) ratio_of(c, ref, false);
        break;
      }
    }
  }
  for (const Curve& c : curves)
    if (c.second == "fixed")
      for (const Curve& other : curves)
        if (other.first != c.first && other.second == "upstream") ratio_of(c, other, true);

  const std::string stem = file_slug(operation + "-" + device_slug(device) + "-timing");
  const fs::path dir = out_dir / "plots";
  const std::string data_name = stem + ".dat";
  std::ostringstream data;
  std::int64_t lo = 0, hi = 0;
  bool first = true;
  std::size_t index = 0;
  std::ostringstream time_plot, ratio_plot;
  for (const Curve& c : curves) {
    data << "# " << gnuplot_string(name_of(c)) << ": " << gnuplot_string(axis) << " median_ms min_ms max_ms\n";
    for (const auto& [v, t] : best->at(c)) {
      data << v << " " << t.median_ms << " " << t.min_ms << " " << t.max_ms << "\n";
      lo = first ? v : std::min(lo, v);
      hi = first ? v : std::max(hi, v);
      first = false;
    }
    data << "\n\n";
    time_plot << (index ? ", \\\n     " : "") << beside_script(data_name) << " index " << index
              << " using 1:2:3:4 with yerrorlines pt 7 ps 1.2 lw 2 lc rgb '" << kColours[colour[c]] << "' title "
              << gnuplot_string(name_of(c));
    ++index;
  }
  for (std::size_t i = 0; i < ratios.size(); ++i) {
    data << "# ratio " << gnuplot_string(ratios[i].title) << ": " << gnuplot_string(axis) << " ratio_of_medians\n";
    for (const auto& [v, r] : ratios[i].points) data << v << " " << r << "\n";
    data << "\n\n";
    ratio_plot << (i ? ", \\\n     " : "") << beside_script(data_name) << " index " << index++
               << " using 1:2 with linespoints pt " << (ratios[i].against_upstream ? 9 : 7) << " ps 1.2 lw 2 dt "
               << (ratios[i].against_upstream ? 2 : 1) << " lc rgb '" << kColours[ratios[i].colour] << "' title "
               << gnuplot_string(ratios[i].title);
  }

  // The ratio axis always shows 1 (equal times), with a margin around the ratios.
  double ratio_lo = 1, ratio_hi = 1;
  for (const Ratio& r : ratios)
    for (const auto& [v, ratio] : r.points) {
      ratio_lo = std::min(ratio_lo, ratio);
      ratio_hi = std::max(ratio_hi, ratio);
    }
  const double ratio_pad = std::max((ratio_hi - ratio_lo) * 0.1, 0.02);
  ratio_lo = std::max(ratio_lo - ratio_pad, 0.0);
  ratio_hi += ratio_pad;
  const bool log_x = lo > 0 && hi > lo * 20;
  std::ostringstream range;
  if (log_x)
    range << "set logscale x\nset xrange [" << lo / 1.5 << ":" << hi * 1.5 << "]\n";
  else {
    const double pad = std::max<double>((hi - lo) * 0.05, 1);
    range << "set xrange [" << lo - pad << ":" << hi + pad << "]\n";
  }
  std::ostringstream body;
  body << "set multiplot title " << gnuplot_string(operation + " on " + device + ": median time by " + axis)
       << " font ',14'\nset lmargin at screen 0.09\nset rmargin at screen 0.66\nset grid\n"
       << range.str() << "set format x '%.0f'\n"
       << "\n# times\nset tmargin at screen 0.90\nset bmargin at screen "
       << (ratios.empty() ? "0.12" : "0.42") << "\nset logscale y\nset ylabel 'ms per call (median; bars min..max)'\n"
       << (ratios.empty() ? "set xlabel " + gnuplot_string(axis) + "\n" : std::string("set format x ''\n"))
       << "set key at screen 0.68, screen 0.90 left top reverse Left box lc rgb '#c0c0c0' samplen 2 spacing 1.2\n"
       << "plot " << time_plot.str() << "\n";
  if (!ratios.empty())
    body << "\n# ratios\nset tmargin at screen 0.38\nset bmargin at screen 0.10\nunset logscale y\n"
         << "set format x '%.0f'\nset xlabel " << gnuplot_string(axis) << "\n"
         << "set ylabel 'ratio of medians'\nset yrange [" << ratio_lo << ":" << ratio_hi << "]\n"
         << "set key at screen 0.68, screen 0.38 left top reverse Left box lc rgb '#c0c0c0' samplen 2 spacing 1.2\n"
         << "plot 1 with lines lc rgb 'black' lw 1 notitle, " << ratio_plot.str() << "\n";
  body << "unset multiplot\n";

  std::ostringstream gp;
  gp << gnuplot_prologue(shown_dir / "plots") << png_and_svg(stem, 1300, ratios.empty() ? 560 : 820, body.str());
  const fs::path script = dir / (stem + ".gp");
  if (!write_text_file(dir / data_name, data.str()) || !write_text_file(script, gp.str())) return std::nullopt;
  Drawing d;
  d.plot.title = operation + " on " + device + ": time by " + axis + " per variant" +
                 (ratios.empty() ? "" : ", with ratios") + " (other axes: " + best_along + ")";
  d.plot.png = "plots/" + stem + ".png";
  d.plot.svg = "plots/" + stem + ".svg";
  d.script = script;
  d.text = gp.str();
  return d;
}

}  // namespace gridfuzz::reports::detail
