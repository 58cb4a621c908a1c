#include "gridfuzz/reports/boundary_compare.hpp"

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

namespace gridfuzz::reports {
namespace {

// What a point says on one side: fails, passes, or nothing (nullopt: no row of it was judged so).
using Judge = std::optional<bool> (*)(const BoundaryPoint&);

std::optional<bool> predicted(const BoundaryPoint& p) { return p.predicted_fails; }
std::optional<bool> observed(const BoundaryPoint& p) { return p.observed_fails; }
std::optional<bool> observed_apart_from_races(const BoundaryPoint& p) { return p.observed_fails_apart_from_races; }

std::string value_text(const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : "none"; }

// Calls `visit(before point, after point)` for each value both lines judge by `judge`, in order.
template <typename Visit>
void for_common_points(const BoundaryLine& before, const BoundaryLine& after, Judge judge, Visit visit) {
  auto b = before.points.begin(), a = after.points.begin();
  while (b != before.points.end() && a != after.points.end()) {
    if (b->value < a->value) {
      ++b;
    } else if (a->value < b->value) {
      ++a;
    } else {
      if (judge(*b) && judge(*a)) visit(*b, *a);
      ++b;
      ++a;
    }
  }
}

// Each run's first failing value over the points both judge.
std::pair<std::optional<std::int64_t>, std::optional<std::int64_t>> common_first_fails(const BoundaryLine& before,
                                                                                       const BoundaryLine& after,
                                                                                       Judge judge) {
  std::optional<std::int64_t> first_before, first_after;
  for_common_points(before, after, judge, [&](const BoundaryPoint& b, const BoundaryPoint& a) {
    if (!first_before && *judge(b)) first_before = b.value;
    if (!first_after && *judge(a)) first_after = a.value;
  });
  return {first_before, first_after};
}

bool judged_at(const BoundaryLine& line, std::int64_t value, Judge judge) {
  const auto it = std::lower_bound(line.points.begin(), line.points.end(), value,
                                   [](const BoundaryPoint& p, std::int64_t v) { return p.value < v; });
  return it != line.points.end() && it->value == value && judge(*it).has_value();
}

// The races of the points both runs ran, as the rows name them.
std::string races_text(const BoundaryLine& before, const BoundaryLine& after) {
  std::set<std::string> races;
  for_common_points(before, after, observed, [&](const BoundaryPoint& b, const BoundaryPoint& a) {
    if (!b.race.empty()) races.insert(b.race);
    if (!a.race.empty()) races.insert(a.race);
  });
  std::string text;
  for (const std::string& race : races) text += (text.empty() ? "" : ", ") + race;
  return text;
}

struct Side {
  BoundaryChange change = BoundaryChange::same;
  std::string text;
};

// `first_before`, `first_after`: the first fails of the whole lines, as the report shows them.
// `apart_from_races`: the judge that leaves the races' rows out (the observed side), or null.
Side compare_side(const char* name, const std::optional<std::int64_t>& first_before,
                  const std::optional<std::int64_t>& first_after, const BoundaryLine& before,
                  const BoundaryLine& after, Judge judge, Judge apart_from_races) {
  if (first_before == first_after) return {};
  const std::string change =
      std::string(name) + " first fail " + value_text(first_before) + " -> " + value_text(first_after);
  const auto [strict_before, strict_after] = common_first_fails(before, after, apart_from_races ? apart_from_races : judge);
  if (strict_before != strict_after) return {BoundaryChange::moved, change};
  if (apart_from_races) {
    const auto [race_before, race_after] = common_first_fails(before, after, judge);
    if (race_before != race_after)
      return {BoundaryChange::moved_by_race, change + " (a race: " + races_text(before, after) + ")"};
  }
  // Equal wherever both runs judged the line: the first fail that differs is a case one run lacks.
  std::string missing;
  if (first_before && !judged_at(after, *first_before, judge))
    missing = "not in the current run: " + std::to_string(*first_before);
  if (first_after && !judged_at(before, *first_after, judge))
    missing += (missing.empty() ? "" : "; ") + std::string("not in the baseline: ") + std::to_string(*first_after);
  return {BoundaryChange::not_reached, change + (missing.empty() ? "" : " (" + missing + ")")};
}

}  // namespace

BoundaryComparison compare_boundary(const BoundaryLine& before, const BoundaryLine& after) {
  std::vector<Side> sides{compare_side("predicted", before.predicted.first_fail, after.predicted.first_fail, before,
                                       after, predicted, nullptr)};
  // Observed boundaries compare only when both runs ran the line on a device.
  if (before.observed && after.observed)
    sides.push_back(compare_side("observed", before.observed->first_fail, after.observed->first_fail, before, after,
                                 observed, observed_apart_from_races));
  BoundaryComparison out;
  for (const Side& s : sides) out.change = std::max(out.change, s.change);
  for (const Side& s : sides)
    if (s.change == out.change && s.change != BoundaryChange::same)
      out.what += (out.what.empty() ? "" : "; ") + s.text;
  return out;
}

}  // namespace gridfuzz::reports
