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

// A timed row on a line along the picture's axis.
struct Entry {
  std::uint64_t along_hash = 0;
  std::int64_t value = 0;
  std::uint32_t timing = 0;      // its index in RowFacts::timings()
  std::uint32_t axis_index = 0;  // the axis' index in the row's signature
};

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  return (h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2))) * 0xff51afd7ed558ccdULL;
}

// tokens when it has two values or more, else the axis with the most values (the first by name).
std::string timing_axis(const RowFacts& facts, const std::vector<std::uint32_t>& timings) {
  std::map<std::string, std::set<std::int64_t>> values;
  std::map<std::uint32_t, std::set<std::int64_t>> by_id;
  for (const std::uint32_t t : timings) {
    const RowFacts::Row& row = facts.row(facts.timings()[t].position);
    const auto& names = facts.signature(row.signature);
    for (std::size_t i = 0; i < names.size(); ++i)
      if (const auto v = facts.integer(facts.value(row, i))) by_id[names[i]].insert(*v);
  }
  for (auto& [id, set] : by_id) values[std::string(facts.text(id))] = std::move(set);
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

int compare_along(const RowFacts& facts, const Entry& a, const Entry& b) {
  const RowFacts::Row &x = facts.row(facts.timings()[a.timing].position), &y = facts.row(facts.timings()[b.timing].position);
  if (x.signature != y.signature) return x.signature < y.signature ? -1 : 1;
  for (std::size_t i = 0; i < facts.signature(x.signature).size(); ++i) {
    if (i == a.axis_index) continue;
    const std::uint32_t u = facts.value(x, i), v = facts.value(y, i);
    if (u != v) return u < v ? -1 : 1;
  }
  return 0;
}

}  // namespace

std::optional<Drawing> timing_picture(const std::string& operation, const std::string& device, const RowFacts& facts,
                                      const std::vector<std::uint32_t>& timings, const fs::path& out_dir,
                                      const fs::path& shown_dir) {
  const std::string axis = timing_axis(facts, timings);
  if (axis.empty()) return std::nullopt;
  const std::uint32_t axis_id = *facts.find_text(axis);

  // The timed rows with a value of the axis, and the curves in the order the rows name them.
  std::vector<Entry> entries;
  std::vector<Curve> order;
  const auto curve_of = [&](const Entry& e) {
    const RowFacts::Group& g = facts.group(facts.row(facts.timings()[e.timing].position).group);
    return Curve{std::string(facts.text(g.kernel)), std::string(facts.text(g.variant))};
  };
  for (const std::uint32_t t : timings) {
    const RowFacts::Row& row = facts.row(facts.timings()[t].position);
    const auto& names = facts.signature(row.signature);
    const auto at = std::find(names.begin(), names.end(), axis_id);
    if (at == names.end()) continue;
    const auto index = static_cast<std::size_t>(at - names.begin());
    const auto v = facts.integer(facts.value(row, index));
    if (!v) continue;
    std::uint64_t hash = row.signature;
    for (std::size_t i = 0; i < names.size(); ++i)
      if (i != index) hash = mix(hash, facts.value(row, i));
    entries.push_back({hash, *v, t, static_cast<std::uint32_t>(index)});
    const Curve curve = curve_of(entries.back());
    if (std::find(order.begin(), order.end(), curve) == order.end()) order.push_back(curve);
  }
  // Rows of one `along` (the other axes) together, in their order.
  std::sort(entries.begin(), entries.end(), [&](const Entry& a, const Entry& b) {
    if (a.along_hash != b.along_hash) return a.along_hash < b.along_hash;
    if (const int c = compare_along(facts, a, b); c != 0) return c < 0;
    return a.timing < b.timing;
  });
  // The line that the most curves cover with two points or more; ties: the most points, then the
  // first `along` by name.
  std::map<Curve, Points> best_curves;
  const std::map<Curve, Points>* best = nullptr;
  std::string best_along;
  std::pair<std::size_t, std::size_t> best_score{0, 0};
  for (std::size_t begin = 0; begin < entries.size();) {
    std::size_t end = begin + 1;
    while (end < entries.size() && entries[end].along_hash == entries[begin].along_hash &&
           compare_along(facts, entries[begin], entries[end]) == 0)
      ++end;
    std::map<Curve, Points> curves;
    for (std::size_t i = begin; i < end; ++i) {
      const RowFacts::Timing& t = facts.timings()[entries[i].timing];
      TimingSamples samples;
      samples.median_ms = t.median_ms;
      samples.min_ms = t.min_ms;
      samples.max_ms = t.max_ms;
      curves[curve_of(entries[i])].emplace(entries[i].value, samples);  // the first row of a value
    }
    std::pair<std::size_t, std::size_t> score{0, 0};
    for (const auto& [curve, points] : curves) {
      score.first += points.size() >= 2;
      score.second += points.size();
    }
    if (score >= best_score && score.first > 0) {
      std::map<std::string, std::string> fixed = facts.axes(facts.row(facts.timings()[entries[begin].timing].position));
      fixed.erase(axis);
      std::string along;
      for (const auto& [name, value] : fixed) along += (along.empty() ? "" : ",") + name + "=" + value;
      if (score > best_score || along < best_along) {
        best_score = score;
        best_curves = std::move(curves);
        best = &best_curves;
        best_along = std::move(along);
      }
    }
    begin = end;
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
