// The per-kernel summary picture: for each axis with a boundary line, one panel; in it one row
// per variant on ONE shared value axis, each case a marker by outcome (pass, refused, wrapped,
// FAIL, ...; hollow when only predicted), the boundary as a dashed bar, and the row's label
// saying where it fails. Points of a line that fails already at its smallest value fail through
// an axis held fixed: they are grey, never drawn as if this axis broke them.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "detail/plot_parts.hpp"
#include "gridfuzz/reports/axis_lines.hpp"
#include "gridfuzz/reports/boundary_table.hpp"
#include "gridfuzz/reports/case_outcome.hpp"  // device_slug
#include "gridfuzz/reports/gnuplot_script.hpp"
#include "gridfuzz/reports/text_escape.hpp"

namespace gridfuzz::reports::detail {
namespace {

namespace fs = std::filesystem;

struct Marker {
  Outcome outcome;
  bool hollow;   // predicted only
  bool through;  // fails through another axis
  auto operator<=>(const Marker&) const = default;
};

struct Row {
  std::string label;
  double y = 0;
  std::optional<double> boundary_x;
};

struct Panel {
  std::string axis, along;
  std::size_t other_lines = 0;  // lines of two points or more along this axis not shown
  ValueSlots slots;
  std::vector<Row> rows;
  std::map<Marker, std::vector<std::pair<double, double>>> points;
  std::size_t label_digits = 1;
};

std::string side_text(const AxisLine* line) {
  if (!line) return "not run on this line";
  const BoundarySide predicted = predicted_side(line->points);
  const std::optional<BoundarySide> observed = observed_side(line->points);
  const BoundarySide& side = observed ? *observed : predicted;
  std::string text;
  if (!side.first_fail)
    text = "no failure up to " + std::to_string(side.max_judged);
  else if (!side.last_pass)
    text = "fails from " + std::to_string(*side.first_fail) + " (another axis)";
  else
    text = "fails from " + std::to_string(*side.first_fail);
  if (!observed)
    text += " (model)";
  else if (predicted.first_fail != observed->first_fail)
    text += " (model: " + (predicted.first_fail ? std::to_string(*predicted.first_fail) : std::string("none")) + ")";
  return text;
}

std::optional<Panel> make_panel(const std::string& axis, const std::vector<const AxisLine*>& candidates,
                                const std::vector<std::string>& variants) {
  // The line (other axes fixed) with the most points over all variants; ties: most variants.
  std::map<std::string, std::pair<std::size_t, std::size_t>> score;
  for (const AxisLine* line : candidates) {
    auto& s = score[line->along];
    if (line->points.size() >= 2) s.first += line->points.size();
    ++s.second;
  }
  std::string along;
  std::pair<std::size_t, std::size_t> best{0, 0};
  for (const auto& [a, s] : score)
    if (s > best) {
      best = s;
      along = a;
    }
  if (best.first == 0) return std::nullopt;  // no line of two points: nothing to show on this axis

  Panel panel;
  panel.axis = axis;
  panel.along = along;
  for (const auto& [a, sc] : score) panel.other_lines += a != along && sc.first > 0;
  std::map<std::string, const AxisLine*> by_variant;
  std::set<std::int64_t> values;
  for (const AxisLine* line : candidates)
    if (line->along == along) {
      by_variant[line->variant] = line;
      for (const auto& [v, rows] : line->points) {
        values.insert(v);
        panel.label_digits = std::max(panel.label_digits, std::to_string(v).size());
      }
    }
  panel.slots = value_slots(values);
  for (std::size_t i = 0; i < variants.size(); ++i) {
    Row row;
    row.y = static_cast<double>(variants.size() - i);
    const auto it = by_variant.find(variants[i]);
    const AxisLine* line = it == by_variant.end() ? nullptr : it->second;
    row.label = variants[i] + ": " + side_text(line);
    if (line) {
      bool leading_fail = true;  // still in the run of failing values the line starts with
      std::optional<Outcome> first_outcome;
      for (const auto& [v, point] : line->points) {
        const PointOutcome o = point.shown;  // the most alarming of its cases
        if (o.outcome != Outcome::skipped) {  // a case not run says nothing about the cause
          if (!first_outcome) first_outcome = o.outcome;
          leading_fail = leading_fail && o.fails() && o.outcome == *first_outcome;
        }
        panel.points[{o.outcome, o.predicted_only, leading_fail && o.fails()}].emplace_back(panel.slots.at[v], row.y);
      }
      const std::optional<BoundarySide> observed = observed_side(line->points);
      const BoundarySide side = observed ? *observed : predicted_side(line->points);
      if (side.first_fail && side.last_pass)
        row.boundary_x = (panel.slots.at[*side.last_pass] + panel.slots.at[*side.first_fail]) / 2;
    }
    panel.rows.push_back(row);
  }
  return panel;
}

std::string fixed_axes_text(const std::string& along) {
  std::string text = along;
  for (auto& c : text)
    if (c == ',') c = ' ';
  return text.empty() ? "no other axis" : text;
}

}  // namespace

std::optional<Drawing> summary_picture(const std::string& kernel, const std::string& device,
                                       const std::vector<std::string>& variants,
                                       const std::vector<const AxisLine*>& lines, const fs::path& out_dir,
                                       const fs::path& shown_dir) {
  std::map<std::string, std::vector<const AxisLine*>> by_axis;
  for (const AxisLine* line : lines) by_axis[line->axis].push_back(line);
  std::vector<std::string> axes;
  for (const auto& [axis, members] : by_axis) axes.push_back(axis);
  std::stable_sort(axes.begin(), axes.end(),
                   [](const std::string& a, const std::string& b) { return axis_rank(a) < axis_rank(b); });
  std::vector<Panel> panels;
  for (const std::string& axis : axes)
    if (auto panel = make_panel(axis, by_axis[axis], variants)) panels.push_back(std::move(*panel));
  if (panels.empty()) return std::nullopt;

  const std::string stem = file_slug(kernel + "-" + device_slug(device) + "-summary");
  const fs::path dir = out_dir / "plots";
  const std::string data_name = stem + ".dat";

  // Data: one block per panel x marker.
  std::ostringstream data;
  std::set<Marker> used;
  std::size_t block = 0;
  std::vector<std::vector<std::pair<Marker, std::size_t>>> blocks(panels.size());
  for (std::size_t p = 0; p < panels.size(); ++p)
    for (const auto& [marker, points] : panels[p].points) {
      data << "# " << gnuplot_string(panels[p].axis) << ": " << to_string(marker.outcome) << (marker.hollow ? ", predicted" : "")
           << (marker.through ? ", through another axis" : "") << "\n";
      for (const auto& [x, y] : points) data << x << " " << y << "\n";
      data << "\n\n";
      blocks[p].emplace_back(marker, block++);
      used.insert(marker);
    }

  // The legend: one entry per marker used, the grey "through another axis", the boundary bar.
  std::set<std::pair<Outcome, bool>> legend_shapes;
  bool any_through = false;
  for (const Marker& m : used) {
    legend_shapes.insert({m.outcome, m.hollow});
    any_through = any_through || m.through;
  }
  const int legend_entries = static_cast<int>(legend_shapes.size()) + (any_through ? 1 : 0) + 1;

  // Layout in pixels, then as screen fractions: the picture grows with the panels and the legend
  // (one column: gnuplot 5.4 stacks key entries of a plot without data in one column anyway).
  const int width = 1400, left = 340, right = 30, top = 48, row_px = 28, title_px = 30;
  const int legend_px = 22 * legend_entries + 24;
  std::vector<int> heights;
  int height = top + legend_px;
  for (const Panel& p : panels) {
    heights.push_back(title_px + row_px * static_cast<int>(p.rows.size()) + 24 + 12 + 8 * static_cast<int>(p.label_digits));
    height += heights.back();
  }
  const auto sx = [&](int px) { return static_cast<double>(px) / width; };
  const auto sy = [&](int px) { return 1.0 - static_cast<double>(px) / height; };

  std::ostringstream body;
  body << "set multiplot title " << gnuplot_string(kernel + " on " + device + ": where each variant fails, per axis")
       << " font ',14'\n"
       << "set lmargin at screen " << sx(left) << "\nset rmargin at screen " << sx(width - right) << "\n"
       << "set grid xtics ytics lc rgb '#e4e4e4'\nunset key\nset mxtics 1\n";
  int y_px = top;
  for (std::size_t p = 0; p < panels.size(); ++p) {
    const Panel& panel = panels[p];
    const int plot_top = y_px + title_px, plot_bottom = plot_top + row_px * static_cast<int>(panel.rows.size()) + 24;
    body << "\n# panel: " << panel.axis << "\nunset arrow\nunset label\n"
         << "set tmargin at screen " << sy(plot_top) << "\nset bmargin at screen " << sy(plot_bottom) << "\n"
         << "set label 1 "
         << gnuplot_string(panel.axis + "   (other axes: " + fixed_axes_text(panel.along) + ")" +
                           (panel.other_lines ? "   + " + std::to_string(panel.other_lines) +
                                                    " other line(s) in report.md, Boundaries"
                                              : ""))
         << " at screen " << sx(left) << ", screen " << sy(plot_top - 9) << " left font ',11'\n"
         << "set xrange [" << -0.8 << ":" << panel.slots.last + 0.8 << "]\n"
         << "set yrange [0.4:" << panel.rows.size() + 0.6 << "]\n"
         << "set xtics " << panel.slots.xtics << " rotate by 90 right font ',9'\n"
         << "set ytics (";
    for (std::size_t r = 0; r < panel.rows.size(); ++r)
      body << (r ? ", " : "") << gnuplot_string(panel.rows[r].label) << " " << panel.rows[r].y;
    body << ") font ',10'\n";
    int arrow = 1;
    for (const Row& row : panel.rows)
      if (row.boundary_x)
        body << "set arrow " << arrow++ << " from " << *row.boundary_x << "," << row.y - 0.45 << " to " << *row.boundary_x
             << "," << row.y + 0.45 << " nohead lw 2.5 lc rgb 'black' front\n";
    body << "plot ";
    for (std::size_t i = 0; i < blocks[p].size(); ++i) {
      const auto& [marker, index] = blocks[p][i];
      const OutcomeStyle& style = style_of(marker.outcome);
      body << (i ? ", \\\n     " : "") << beside_script(data_name) << " index " << index
           << " using 1:2 with points pt " << (marker.hollow ? style.hollow_pt : style.filled_pt) << " ps 1.6 lw 2 lc rgb '"
           << (marker.through ? kThroughOtherColour : style.colour) << "'";
    }
    body << "\n";
    y_px += heights[p];
  }

  // The legend in its own strip below the panels: it never covers a label or a point.
  body << "\n# legend\nunset arrow\nunset label\nunset grid\nunset border\nunset tics\nunset xlabel\nunset ylabel\n"
       << "set tmargin at screen " << sy(height - legend_px + 8) << "\nset bmargin at screen " << sy(height - 4) << "\n"
       << "set xrange [0:1]\nset yrange [0:1]\nset key center center vertical reverse Left samplen 1.5 spacing 1.3 "
          "width 2 box lc rgb '#c0c0c0'\n"
       << "plot NaN notitle";  // a function first: gnuplot 5.4 asserts on a plot of key entries only
  for (const auto& [outcome, hollow] : legend_shapes) {
    const OutcomeStyle& style = style_of(outcome);
    body << ", \\\n     " << "keyentry with points pt " << (hollow ? style.hollow_pt : style.filled_pt)
         << " ps 1.6 lw 2 lc rgb '" << style.colour << "' title "
         << gnuplot_string(std::string(style.legend) + (hollow ? ", predicted (static row)" : ""));
  }
  if (any_through)
    body << ", \\\n     keyentry with points pt 7 ps 1.6 lc rgb '" << kThroughOtherColour
         << "' title 'grey: fails through another axis (the line fails from its first value)'";
  body << ", \\\n     keyentry with points pt '|' ps 1.6 lc rgb 'black' title 'boundary: between last pass and first fail'\n"
       << "unset multiplot\n";

  std::ostringstream gp;
  gp << gnuplot_prologue(shown_dir / "plots") << png_and_svg(stem, width, height, body.str());
  const fs::path script = dir / (stem + ".gp");
  if (!write_text_file(dir / data_name, data.str()) || !write_text_file(script, gp.str())) return std::nullopt;
  Drawing d;
  d.plot.title = kernel + " on " + device + ": summary (each axis' boundary per variant)";
  d.plot.png = "plots/" + stem + ".png";
  d.plot.svg = "plots/" + stem + ".svg";
  d.script = script;
  d.text = gp.str();
  return d;
}

}  // namespace gridfuzz::reports::detail
