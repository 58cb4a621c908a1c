#include "gridfuzz/reports/axis_lines.hpp"

#include <algorithm>
#include <functional>
#include <tuple>

namespace gridfuzz::reports {
namespace {

// A row on a line along one axis: the hash of its other axes (names and values), its value.
struct Entry {
  std::uint64_t along_hash = 0;
  std::int64_t value = 0;
  std::uint32_t position = 0;
  std::uint32_t axis_index = 0;  // the axis' index in the row's signature
};

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  return (h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2))) * 0xff51afd7ed558ccdULL;
}

// The rows of `positions` that have `axis` with an integer value, with the hash of their other axes.
std::vector<Entry> entries_along(const RowFacts& facts, const std::vector<std::uint32_t>& positions,
                                 std::uint32_t axis) {
  std::vector<Entry> entries;
  for (const std::uint32_t position : positions) {
    const RowFacts::Row& row = facts.row(position);
    const auto& names = facts.signature(row.signature);
    const auto at = std::find(names.begin(), names.end(), axis);
    if (at == names.end()) continue;
    const auto index = static_cast<std::size_t>(at - names.begin());
    const auto value = facts.integer(facts.value(row, index));
    if (!value) continue;  // a choice axis (quant, dtype) has no order
    std::uint64_t hash = row.signature;
    for (std::size_t i = 0; i < names.size(); ++i)
      if (i != index) hash = mix(hash, facts.value(row, i));
    entries.push_back({hash, *value, position, static_cast<std::uint32_t>(index)});
  }
  return entries;
}

// Whether two entries' rows have the same other axes (their line's `along`): -1, 0, 1.
int compare_along(const RowFacts& facts, const Entry& a, const Entry& b) {
  const RowFacts::Row &x = facts.row(a.position), &y = facts.row(b.position);
  if (x.signature != y.signature) return x.signature < y.signature ? -1 : 1;
  const std::size_t n = facts.signature(x.signature).size();
  for (std::size_t i = 0; i < n; ++i) {
    if (i == a.axis_index) continue;
    const std::uint32_t u = facts.value(x, i), v = facts.value(y, i);
    if (u != v) return u < v ? -1 : 1;
  }
  return 0;
}

void add_row(LinePoint& point, std::size_t position, const RowFacts::Row& row, bool first) {
  if (row.predicted_fails && !point.predicted_failing) point.predicted_failing = position;
  if (const auto fails = row.observed_fails()) {
    point.ran = true;
    if (*fails && !point.observed_failing) point.observed_failing = position;
    if (row.race == 0)
      point.observed_fails_apart_from_races = point.observed_fails_apart_from_races.value_or(false) || *fails;
    else if (*fails && point.race == 0)
      point.race = row.race;
  }
  const PointOutcome outcome = row.outcome();
  if (first || severity(outcome.outcome) > severity(point.shown.outcome)) point.shown = outcome;
}

AxisLine make_line(const RowFacts& facts, const Entry& first, std::uint32_t axis) {
  const RowFacts::Row& row = facts.row(first.position);
  const RowFacts::Group& group = facts.group(row.group);
  AxisLine line;
  line.kernel = facts.text(group.kernel);
  line.variant = facts.text(group.variant);
  line.device = facts.text(group.device);
  line.axis = facts.text(axis);
  line.fixed = facts.axes(row);
  line.fixed.erase(line.axis);
  for (const auto& [name, v] : line.fixed) line.along += (line.along.empty() ? "" : ",") + name + "=" + v;
  return line;
}

}  // namespace

int severity(Outcome o) {
  switch (o) {
    case Outcome::disagrees: return 6;
    case Outcome::failed: return 5;
    case Outcome::wrapped: return 4;
    case Outcome::known: return 3;
    case Outcome::refused: return 2;
    case Outcome::pass: return 1;
    case Outcome::skipped: return 0;
  }
  return 0;
}

std::vector<AxisLine> axis_lines(const RowFacts& facts, LineChoice choice) {
  // The rows of each kernel x device (its variants together: the lines of one `along` are set
  // side by side across variants), in order.
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::uint32_t>> families;
  for (std::size_t position = 0; position < facts.size(); ++position) {
    const RowFacts::Group& g = facts.group(facts.row(position).group);
    families[{g.kernel, g.device}].push_back(static_cast<std::uint32_t>(position));
  }
  std::vector<AxisLine> lines;
  for (const auto& [family, positions] : families) {
    std::vector<bool> seen_signature;
    std::vector<std::uint32_t> axes;
    for (const std::uint32_t position : positions) {
      const std::uint32_t signature = facts.row(position).signature;
      if (signature >= seen_signature.size()) seen_signature.resize(signature + 1);
      if (seen_signature[signature]) continue;
      seen_signature[signature] = true;
      for (const std::uint32_t name : facts.signature(signature))
        if (std::find(axes.begin(), axes.end(), name) == axes.end()) axes.push_back(name);
    }
    for (const std::uint32_t axis : axes) {
      std::vector<Entry> entries = entries_along(facts, positions, axis);
      // By `along`, then variant, value and position: a line's rows together, in their order.
      std::sort(entries.begin(), entries.end(), [&](const Entry& a, const Entry& b) {
        if (a.along_hash != b.along_hash) return a.along_hash < b.along_hash;
        if (const int c = compare_along(facts, a, b); c != 0) return c < 0;
        const std::uint32_t ga = facts.row(a.position).group, gb = facts.row(b.position).group;
        return std::tie(ga, a.value, a.position) < std::tie(gb, b.value, b.position);
      });
      for (std::size_t begin = 0; begin < entries.size();) {
        std::size_t end = begin + 1;  // the rows of one `along`
        while (end < entries.size() && entries[end].along_hash == entries[begin].along_hash &&
               compare_along(facts, entries[begin], entries[end]) == 0)
          ++end;
        std::vector<AxisLine> of_along;
        bool two_points = false;
        for (std::size_t i = begin; i < end;) {  // one line per variant
          AxisLine line = make_line(facts, entries[i], axis);
          const std::uint32_t group = facts.row(entries[i].position).group;
          for (; i < end && facts.row(entries[i].position).group == group; ++i) {
            const auto [point, added] = line.points.try_emplace(entries[i].value);
            add_row(point->second, entries[i].position, facts.row(entries[i].position), added);
          }
          two_points = two_points || line.points.size() >= 2;
          if (choice == LineChoice::beside_two_points || line.points.size() >= 2) of_along.push_back(std::move(line));
        }
        if (two_points)
          for (AxisLine& line : of_along) lines.push_back(std::move(line));
        begin = end;
      }
    }
  }
  std::sort(lines.begin(), lines.end(), [](const AxisLine& a, const AxisLine& b) {
    return std::tie(a.kernel, a.variant, a.device, a.axis, a.along) <
           std::tie(b.kernel, b.variant, b.device, b.axis, b.along);
  });
  return lines;
}

}  // namespace gridfuzz::reports
