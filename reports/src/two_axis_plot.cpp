// The two-axis boundary as a picture: for each value of the key axis (a vocab, a top_k), the
// first failing tokens of each variant, on one log scale; a variant that never fails is drawn at
// the largest value it passed, with an up triangle; one that fails from the first value tested
// (another axis is the cause) as a grey cross.
#include <sstream>

#include "detail/plot_parts.hpp"
#include "gridfuzz/reports/case_outcome.hpp"
#include "gridfuzz/reports/gnuplot_script.hpp"
#include "gridfuzz/reports/text_escape.hpp"

namespace gridfuzz::reports::detail {
namespace {

namespace fs = std::filesystem;

constexpr const char* kColours[] = {"#d62728", "#2ca02c", "#1f77b4", "#ff7f0e", "#9467bd", "#8c564b", "#17becf"};

}  // namespace

std::optional<Drawing> two_axis_picture(const TwoAxisTable& table, const fs::path& out_dir,
                                        const fs::path& shown_dir) {
  if (table.entries.empty()) return std::nullopt;
  const std::string stem =
      file_slug(table.kernel + "-" + device_slug(table.device) + "-" + table.axis + "-by-" + table.key_axis);
  const fs::path dir = out_dir / "plots";
  const std::string data_name = stem + ".dat";

  std::ostringstream data, plot, tics;
  const std::size_t n = table.variants.size();
  std::size_t index = 0;
  std::int64_t lo = 0, hi = 0;
  bool first_value = true;
  bool others = false;
  for (std::size_t e = 0; e < table.entries.size(); ++e) {
    const TwoAxisEntry& entry = table.entries[e];
    std::string label = std::to_string(entry.key_value);
    if (!entry.others.empty()) label += " (" + entry.others + ")";
    others = others || !entry.others.empty();
    tics << (e ? ", " : "(") << gnuplot_string(label) << " " << e;
  }
  tics << ")";
  for (std::size_t j = 0; j < n; ++j) {
    const std::string& variant = table.variants[j];
    const double offset = (static_cast<double>(j) - (static_cast<double>(n) - 1) / 2) * (n <= 2 ? 0.16 : 0.08);
    // Labels of the first half of the variants go above their points, the others below: two
    // variants failing at the same value stay readable.
    const bool label_above = 2 * j + 1 < n;
    // Blocks: 0 first fails seen on the device, 1 first fails of the model only, 2 no failure
    // up to the value, 3 failing from the first value.
    std::ostringstream blocks[4];
    std::size_t counts[4] = {0, 0, 0, 0};
    for (std::size_t e = 0; e < table.entries.size(); ++e) {
      const auto it = table.entries[e].cells.find(variant);
      if (it == table.entries[e].cells.end()) continue;
      const TwoAxisCell& cell = it->second;
      const std::int64_t y = cell.first_fail ? *cell.first_fail : cell.max_tested;
      const int kind = !cell.first_fail ? 2 : cell.fails_from_start ? 3 : cell.observed ? 0 : 1;
      // The first fail in a few characters: "> N" nothing failed up to N, "<= N" N was the
      // smallest value tested and failed already.
      const std::string label = kind == 2 ? "> " + std::to_string(y)
                                : kind == 3 ? "<= " + std::to_string(y)
                                            : std::to_string(y);
      blocks[kind] << e + offset << " " << y << " \"" << label << "\"\n";
      ++counts[kind];
      lo = first_value ? y : std::min(lo, y);
      hi = first_value ? y : std::max(hi, y);
      first_value = false;
    }
    static const char* what[] = {"first fail", "first fail (model)", "no failure up to", "fails from the first value"};
    for (int k = 0; k < 4; ++k) {
      if (counts[k] == 0) continue;  // gnuplot counts runs of blank lines as one: no empty blocks
      data << "# " << gnuplot_string(variant) << ": " << what[k] << "\n" << blocks[k].str() << "\n\n";
      const std::string colour = k == 3 ? kThroughOtherColour : kColours[j % std::size(kColours)];
      const std::string title = k == 0 ? variant + ": first fail"
                                : k == 1 ? variant + ": first fail (model, not run)"
                                : k == 2 ? variant + ": no failure up to the value (> N)"
                                         : variant + ": fails from the first value tested (<= N, another axis)";
      const int pt = k == 0 ? 7 : k == 1 ? 6 : k == 2 ? 8 : 2;
      plot << (plot.tellp() > 0 ? ", \\\n     " : "") << beside_script(data_name) << " index " << index
           << " using 1:2 with " << (k <= 1 ? "linespoints" : "points") << " pt " << pt << " ps 1.8 lw 2 lc rgb '"
           << colour << "' title " << gnuplot_string(title) << ", \\\n     " << beside_script(data_name) << " index "
           << index << " using 1:2:3 with labels " << (label_above ? "center offset 0,1.1" : "center offset 0,-1.1")
           << " font ',9' tc rgb '" << colour
           << "' notitle";
      ++index;
    }
  }
  std::ostringstream body;
  body << "set title " << gnuplot_string(table.kernel + " on " + table.device + ": first failing " + table.axis +
                                         " for each " + table.key_axis)
       << " font ',13'\nset xlabel " << gnuplot_string(table.key_axis) << "\nset ylabel "
       << gnuplot_string("first failing " + table.axis + " (log)") << "\nset logscale y\n"
       << "set yrange [" << std::max<double>(lo / 3.0, 0.5) << ":" << hi * 3.0 << "]\n"
       << "set xrange [-0.6:" << static_cast<double>(table.entries.size()) - 0.4 << "]\n"
       << "set xtics " << tics.str() << (others ? " rotate by 20 right" : "") << " font ',10'\nset grid ytics\n"
       << "set lmargin 12\nset rmargin 4\nset bmargin 9\n"
       << "set key outside below center horizontal reverse Left maxcols 2 box lc rgb '#c0c0c0' samplen 2 spacing 1.2\n"
       << "plot " << plot.str() << "\n";
  std::ostringstream gp;
  gp << gnuplot_prologue(shown_dir / "plots") << png_and_svg(stem, 1000, 650, body.str());
  const fs::path script = dir / (stem + ".gp");
  if (!write_text_file(dir / data_name, data.str()) || !write_text_file(script, gp.str())) return std::nullopt;
  Drawing d;
  d.plot.title = table.kernel + " on " + table.device + ": first failing " + table.axis + " by " + table.key_axis;
  d.plot.png = "plots/" + stem + ".png";
  d.plot.svg = "plots/" + stem + ".svg";
  d.script = script;
  d.text = gp.str();
  return d;
}

}  // namespace gridfuzz::reports::detail
