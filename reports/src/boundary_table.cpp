#include "gridfuzz/reports/boundary_table.hpp"

#include <map>
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

// Cases at one value of the line's axis (several seeds may share it).
using Line = std::map<std::int64_t, std::vector<const CsvRow*>>;

// `fails` says whether a row fails on this side, or nullopt when the row has no say.
template <typename Fails>
std::optional<BoundarySide> side_of(const Line& line, Fails fails, bool with_rule_numbers) {
  std::vector<std::pair<std::int64_t, const CsvRow*>> judged;  // value, first failing row or null
  for (const auto& [value, rows] : line) {
    bool any = false;
    const CsvRow* failing = nullptr;
    for (const CsvRow* row : rows) {
      const std::optional<bool> f = fails(*row);
      if (!f) continue;
      any = true;
      if (*f && !failing) failing = row;
    }
    if (any) judged.emplace_back(value, failing);
  }
  if (judged.empty()) return std::nullopt;
  BoundarySide side;
  for (const auto& [value, failing] : judged) {
    if (!side.first_fail) {
      if (!failing) {
        side.last_pass = value;
        continue;
      }
      side.first_fail = value;
      side.rule = with_rule_numbers ? predicted_rule_text(*failing) : observed_text(*failing);
      side.replay = failing->get("replay");
    } else if (!failing) {
      side.passes_again_at = value;
      break;
    }
  }
  return side;
}

std::optional<std::int64_t> integer_value(const std::string& text) {
  return text.empty() ? std::nullopt : parse_int(text);
}

}  // namespace

std::string BoundaryLine::key() const {
  return kernel + '\x1f' + variant + '\x1f' + device + '\x1f' + axis + '\x1f' + along;
}

std::vector<BoundaryLine> boundary_table(const std::vector<CsvRow>& rows) {
  // kernel, variant, device -> the group's cases with their axes.
  std::map<std::tuple<std::string, std::string, std::string>, std::vector<Point>> groups;
  for (const CsvRow& row : rows)
    groups[{row.get("kernel"), row.get("variant"), row.get("device")}].push_back({&row, case_axes(row)});

  std::vector<BoundaryLine> table;
  for (const auto& [group, points] : groups) {
    std::set<std::string> axis_names;
    for (const Point& p : points)
      for (const auto& [name, value] : p.axes) axis_names.insert(name);
    for (const std::string& axis : axis_names) {
      // The line of a case is every other axis' value; cases on one line differ only in `axis`.
      std::map<std::string, Line> lines;
      for (const Point& p : points) {
        const auto it = p.axes.find(axis);
        if (it == p.axes.end()) continue;
        const auto value = integer_value(it->second);
        if (!value) continue;  // a choice axis (quant, dtype) has no order
        std::string along;
        for (const auto& [name, v] : p.axes)
          if (name != axis) along += (along.empty() ? "" : ",") + name + "=" + v;
        lines[along][*value].push_back(p.row);
      }
      for (const auto& [along, line] : lines) {
        if (line.size() < 2) continue;
        BoundaryLine b;
        std::tie(b.kernel, b.variant, b.device) = group;
        b.axis = axis;
        b.along = along;
        b.points = line.size();
        b.min_value = line.begin()->first;
        b.max_value = line.rbegin()->first;
        b.predicted = *side_of(line, [](const CsvRow& r) -> std::optional<bool> { return predicted_fails(r); }, true);
        b.observed = side_of(line, observed_fails, false);
        table.push_back(std::move(b));
      }
    }
  }
  return table;
}

}  // namespace gridfuzz::reports
