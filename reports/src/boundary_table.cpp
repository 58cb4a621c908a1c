#include "gridfuzz/reports/boundary_table.hpp"

#include <utility>

#include "gridfuzz/reports/case_outcome.hpp"

namespace gridfuzz::reports {
namespace {

std::optional<BoundarySide> side_of(const std::map<std::int64_t, LinePoint>& points, bool observed) {
  std::vector<std::pair<std::int64_t, std::optional<std::size_t>>> judged;  // value, first failing row
  for (const auto& [value, point] : points) {
    if (observed && !point.ran) continue;
    judged.emplace_back(value, observed ? point.observed_failing : point.predicted_failing);
  }
  if (judged.empty()) return std::nullopt;
  BoundarySide side;
  side.max_judged = judged.back().first;
  for (const auto& [value, failing] : judged) {
    if (!side.first_fail) {
      if (!failing) {
        side.last_pass = value;
        continue;
      }
      side.first_fail = value;
      side.first_fail_row = failing;
    } else if (!failing) {
      side.passes_again_at = value;
      break;
    }
  }
  return side;
}

std::vector<BoundaryPoint> points_of(const std::map<std::int64_t, LinePoint>& line, const RowFacts& facts) {
  std::vector<BoundaryPoint> points;
  for (const auto& [value, point] : line) {
    BoundaryPoint& p = points.emplace_back();
    p.value = value;
    p.predicted_fails = point.predicted_failing.has_value();
    if (point.ran) p.observed_fails = point.observed_failing.has_value();
    p.observed_fails_apart_from_races = point.observed_fails_apart_from_races;
    if (point.race != 0) p.race = facts.text(point.race - 1);
  }
  return points;
}

}  // namespace

BoundarySide predicted_side(const std::map<std::int64_t, LinePoint>& points) {
  auto side = side_of(points, false);
  return side ? *side : BoundarySide{};
}

std::optional<BoundarySide> observed_side(const std::map<std::int64_t, LinePoint>& points) {
  return side_of(points, true);
}

void name_first_fail(BoundarySide& side, const RowSource& rows, bool predicted) {
  if (!side.first_fail_row) return;
  const CsvRow row = rows.at(*side.first_fail_row);
  side.rule = predicted ? predicted_rule_text(row) : observed_text(row);
  side.replay = row.get("replay");
}

std::string BoundaryLine::key() const {
  return kernel + '\x1f' + variant + '\x1f' + device + '\x1f' + axis + '\x1f' + along;
}

std::vector<BoundaryLine> boundary_table(const RowFacts& facts, const RowSource& rows) {
  std::vector<BoundaryLine> table;
  for (AxisLine& line : axis_lines(facts, LineChoice::two_points)) {
    BoundaryLine b;
    b.kernel = std::move(line.kernel);
    b.variant = std::move(line.variant);
    b.device = std::move(line.device);
    b.axis = std::move(line.axis);
    b.along = std::move(line.along);
    b.min_value = line.points.begin()->first;
    b.max_value = line.points.rbegin()->first;
    b.predicted = predicted_side(line.points);
    name_first_fail(b.predicted, rows, true);
    b.observed = observed_side(line.points);
    if (b.observed) name_first_fail(*b.observed, rows, false);
    b.points = points_of(line.points, facts);
    table.push_back(std::move(b));
  }
  return table;
}

std::vector<BoundaryLine> boundary_table(const std::vector<CsvRow>& rows, const KnownRaces& races) {
  const RowVector source(rows);
  return boundary_table(RowFacts::of(source, races), source);
}

}  // namespace gridfuzz::reports
