#pragma once
// Lines of cases: per kernel x variant x device and per integer axis, the cases that differ only
// in that axis (every other parameter equal). The boundary table, the two-axis tables and the
// summary pictures all read the runs through them.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gridfuzz/reports/csv_row.hpp"

namespace gridfuzz::reports {

struct AxisLine {
  std::string kernel, variant, device;
  std::string axis;                          // the axis that varies along the line
  std::string along;                         // the other axes, fixed: "cols=2816,dtype=f32,..."
  std::map<std::string, std::string> fixed;  // the same as name -> value
  std::map<std::int64_t, std::vector<const CsvRow*>> points;  // value of `axis` -> its cases
};

// Every line with at least `min_points` distinct values, ordered by kernel, variant, device, axis
// and `along`. Choice axes (quant, dtype) have no order and make no line. The rows must outlive
// the lines.
std::vector<AxisLine> axis_lines(const std::vector<CsvRow>& rows, std::size_t min_points = 2);

}  // namespace gridfuzz::reports
