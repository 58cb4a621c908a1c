#pragma once
// Lines of cases: per kernel x variant x device and per integer axis, the cases that differ only
// in that axis (every other axis equal). The boundary table, the two-axis tables and the summary
// pictures all read the runs through them. Made from the rows' facts (row_facts.hpp): each value
// of a line keeps what its rows say taken together (LinePoint) and the positions of the rows a
// report names, never the rows.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gridfuzz/reports/point_outcome.hpp"
#include "gridfuzz/reports/row_facts.hpp"

namespace gridfuzz::reports {

// One value of a line: its rows (several seeds may share it) taken together, in their order.
struct LinePoint {
  std::optional<std::size_t> predicted_failing;  // the first row the model says fails (its position)
  bool ran = false;                              // a row ran on a device
  std::optional<std::size_t> observed_failing;   // the first row that ran and failed
  // Whether a row that ran fails, the rows of known races left out (nullopt: only they ran).
  std::optional<bool> observed_fails_apart_from_races;
  std::uint32_t race = 0;  // the race of the first such row that fails (RowFacts::Row::race)
  PointOutcome shown;      // the most alarming of its rows' outcomes (severity), the first of equals
};

struct AxisLine {
  std::string kernel, variant, device;
  std::string axis;                          // the axis that varies along the line
  std::string along;                         // the other axes, fixed: "cols=2816,dtype=f32,..."
  std::map<std::string, std::string> fixed;  // the same as name -> value
  std::map<std::int64_t, LinePoint> points;  // value of `axis` -> its rows
};

enum class LineChoice {
  // Lines of two values or more.
  two_points,
  // Every variant's line (of one value or more) on an `along` where some variant of the same
  // kernel x device has a line of two values or more: what the two-axis tables and the summary
  // pictures set side by side. A line of one value elsewhere (a random case) is no line of these.
  beside_two_points,
};

// The lines, ordered by kernel, variant, device, axis and `along`. Choice axes (quant, dtype)
// have no order and make no line.
std::vector<AxisLine> axis_lines(const RowFacts& facts, LineChoice choice);

// Which of several cases at one value a picture or table shows: the most alarming outcome.
int severity(Outcome outcome);

}  // namespace gridfuzz::reports
