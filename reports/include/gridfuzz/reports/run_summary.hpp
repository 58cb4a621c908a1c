#pragma once
// Counts by verdict per kernel x variant x device, and the slowest timed cases: the summary
// sections of a report.
#include <cstddef>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "gridfuzz/reports/csv_row.hpp"

namespace gridfuzz::reports {

// kernel, variant, device
using GroupKey = std::tuple<std::string, std::string, std::string>;

GroupKey group_of(const CsvRow& row);

// Group -> verdict -> rows. fail:<kind> verdicts are counted under their full text.
std::map<GroupKey, std::map<std::string, std::size_t>> verdict_counts(const std::vector<CsvRow>& rows);

// The `count` timed rows with the largest time_ms_median, slowest first.
std::vector<const CsvRow*> slowest_cases(const std::vector<CsvRow>& rows, std::size_t count);

}  // namespace gridfuzz::reports
