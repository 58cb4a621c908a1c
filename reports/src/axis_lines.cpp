#include "gridfuzz/reports/axis_lines.hpp"

#include <set>
#include <tuple>

#include "gridfuzz/reports/case_outcome.hpp"

namespace gridfuzz::reports {
namespace {

using Axes = std::map<std::string, std::string>;

struct Point {
  const CsvRow* row;
  Axes axes;
};

}  // namespace

std::vector<AxisLine> axis_lines(const std::vector<CsvRow>& rows, std::size_t min_points) {
  // kernel, variant, device -> the group's cases with their axes.
  std::map<std::tuple<std::string, std::string, std::string>, std::vector<Point>> groups;
  for (const CsvRow& row : rows)
    groups[{row.get("kernel"), row.get("variant"), row.get("device")}].push_back({&row, case_axes(row)});

  std::vector<AxisLine> lines;
  for (const auto& [group, points] : groups) {
    std::set<std::string> axis_names;
    for (const Point& p : points)
      for (const auto& [name, value] : p.axes) axis_names.insert(name);
    for (const std::string& axis : axis_names) {
      // The line of a case is every other axis' value; cases on one line differ only in `axis`.
      std::map<std::string, AxisLine> by_along;
      for (const Point& p : points) {
        const auto it = p.axes.find(axis);
        if (it == p.axes.end() || it->second.empty()) continue;
        const auto value = parse_int(it->second);
        if (!value) continue;  // a choice axis (quant, dtype) has no order
        std::string along;
        for (const auto& [name, v] : p.axes)
          if (name != axis) along += (along.empty() ? "" : ",") + name + "=" + v;
        AxisLine& line = by_along[along];
        if (line.points.empty()) {
          std::tie(line.kernel, line.variant, line.device) = group;
          line.axis = axis;
          line.along = along;
          line.fixed = p.axes;
          line.fixed.erase(axis);
        }
        line.points[*value].push_back(p.row);
      }
      for (auto& [along, line] : by_along)
        if (line.points.size() >= min_points) lines.push_back(std::move(line));
    }
  }
  return lines;
}

}  // namespace gridfuzz::reports
