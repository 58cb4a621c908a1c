#include "gridfuzz/reports/boundary_table.hpp"

#include <utility>

#include "gridfuzz/reports/axis_lines.hpp"
#include "gridfuzz/reports/case_outcome.hpp"

namespace gridfuzz::reports {
namespace {

// `fails` says whether a row fails on this side, or nullopt when the row has no say.
template <typename Fails>
std::optional<BoundarySide> side_of(const LinePoints& line, Fails fails, bool with_rule_numbers) {
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
  side.max_judged = judged.back().first;
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

std::vector<BoundaryPoint> points_of(const LinePoints& line, const KnownRaces& races) {
  std::vector<BoundaryPoint> points;
  for (const auto& [value, rows] : line) {
    BoundaryPoint& p = points.emplace_back();
    p.value = value;
    for (const CsvRow* row : rows) {
      p.predicted_fails = p.predicted_fails || predicted_fails(*row);
      const std::optional<bool> fails = observed_fails(*row);
      if (!fails) continue;
      p.observed_fails = p.observed_fails.value_or(false) || *fails;
      if (const auto race = races.race_of(*row)) {
        if (*fails && p.race.empty()) p.race = *race;
      } else {
        p.observed_fails_apart_from_races = p.observed_fails_apart_from_races.value_or(false) || *fails;
      }
    }
  }
  return points;
}

}  // namespace

BoundarySide predicted_side(const LinePoints& line) {
  auto side = side_of(line, [](const CsvRow& r) -> std::optional<bool> { return predicted_fails(r); }, true);
  return side ? *side : BoundarySide{};
}

std::optional<BoundarySide> observed_side(const LinePoints& line) { return side_of(line, observed_fails, false); }

std::string BoundaryLine::key() const {
  return kernel + '\x1f' + variant + '\x1f' + device + '\x1f' + axis + '\x1f' + along;
}

std::vector<BoundaryLine> boundary_table(const std::vector<CsvRow>& rows, const KnownRaces& races) {
  std::vector<BoundaryLine> table;
  for (const AxisLine& line : axis_lines(rows, 2)) {
    BoundaryLine b;
    b.kernel = line.kernel;
    b.variant = line.variant;
    b.device = line.device;
    b.axis = line.axis;
    b.along = line.along;
    b.min_value = line.points.begin()->first;
    b.max_value = line.points.rbegin()->first;
    b.predicted = predicted_side(line.points);
    b.observed = observed_side(line.points);
    b.points = points_of(line.points, races);
    table.push_back(std::move(b));
  }
  return table;
}

}  // namespace gridfuzz::reports
