#pragma once
// The boundary table: per kernel x variant x device and per axis, along every line of cases
// that differ only in that axis, the last value that passes and the first that fails, as the
// model predicted and as the device observed. From the lines of the rows' facts (axis_lines.hpp);
// the rule and replay string at a first fail are read from that row.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gridfuzz/reports/axis_lines.hpp"
#include "gridfuzz/reports/csv_row.hpp"
#include "gridfuzz/reports/known_races.hpp"
#include "gridfuzz/reports/row_facts.hpp"
#include "gridfuzz/reports/row_source.hpp"

namespace gridfuzz::reports {

// One side (predicted or observed) of a line.
struct BoundarySide {
  std::optional<std::int64_t> last_pass;   // the largest passing value below first_fail
  std::optional<std::int64_t> first_fail;  // the smallest failing value; nullopt: none fails
  std::string rule;                        // at first_fail: "grid.z 65536 > 65535", observed text...
  std::string replay;                      // the case at first_fail
  std::optional<std::size_t> first_fail_row;  // its position among the rows
  std::optional<std::int64_t> passes_again_at;  // a passing value above first_fail, if any
  std::int64_t max_judged = 0;             // the largest value this side judged (none fails: passes up to it)
  friend bool operator==(const BoundarySide&, const BoundarySide&) = default;
};

// One value of a line, its rows taken together: what the diff compares point by point
// (boundary_compare.hpp).
struct BoundaryPoint {
  std::int64_t value = 0;
  bool predicted_fails = false;        // a row's model says it fails
  std::optional<bool> observed_fails;  // a row that ran fails; nullopt: none ran on a device
  // The same with the rows of known races left out (KnownRaces): nullopt when only they ran.
  std::optional<bool> observed_fails_apart_from_races;
  std::string race;  // the race of the first race row here (its finding, or fail:nondeterministic)
  friend bool operator==(const BoundaryPoint&, const BoundaryPoint&) = default;
};

struct BoundaryLine {
  std::string kernel, variant, device;
  std::string axis;    // the axis that varies along the line
  std::string along;   // the other axes, fixed: "cols=2816,dtype=f32,..."
  std::int64_t min_value = 0, max_value = 0;
  BoundarySide predicted;
  std::optional<BoundarySide> observed;  // nullopt when no case of the line ran on a device
  std::vector<BoundaryPoint> points;     // each distinct value of `axis` on the line, in order

  // kernel, variant, device, axis and `along`: what identifies the line across runs.
  std::string key() const;
};

// The model's side of a line (every row is judged), and the device's (nullopt when no row of the
// line ran on a device: static, skipped); `rule` and `replay` are left empty (name_first_fail).
BoundarySide predicted_side(const std::map<std::int64_t, LinePoint>& points);
std::optional<BoundarySide> observed_side(const std::map<std::int64_t, LinePoint>& points);
// A side's rule and replay string, read from its row at first_fail: the predicted rule with its
// numbers (predicted_rule_text), or what the device did (observed_text).
void name_first_fail(BoundarySide& side, const RowSource& rows, bool predicted);

// Every line of at least two points over an integer axis, ordered by kernel, variant, device,
// axis and `along`. `rows` are the facts' rows.
std::vector<BoundaryLine> boundary_table(const RowFacts& facts, const RowSource& rows);
// The same of rows in memory; `races` tells the points' race rows (the diff's; a report needs none).
std::vector<BoundaryLine> boundary_table(const std::vector<CsvRow>& rows, const KnownRaces& races = {});

}  // namespace gridfuzz::reports
