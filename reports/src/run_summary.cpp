#include "gridfuzz/reports/run_summary.hpp"

#include <algorithm>
#include <cmath>

namespace gridfuzz::reports {

GroupKey group_of(const CsvRow& row) { return {row.get("kernel"), row.get("variant"), row.get("device")}; }

std::map<GroupKey, std::map<std::string, std::size_t>> verdict_counts(const std::vector<CsvRow>& rows) {
  std::map<GroupKey, std::map<std::string, std::size_t>> counts;
  for (const CsvRow& row : rows) ++counts[group_of(row)][row.get("verdict")];
  return counts;
}

std::vector<const CsvRow*> slowest_cases(const std::vector<CsvRow>& rows, std::size_t count) {
  std::vector<std::pair<double, const CsvRow*>> timed;
  for (const CsvRow& row : rows) {
    const auto median = row.get_double("time_ms_median");
    if (median && std::isfinite(*median)) timed.emplace_back(*median, &row);
  }
  // Ties keep file order, so the same input gives the same report.
  std::stable_sort(timed.begin(), timed.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<const CsvRow*> slowest;
  for (std::size_t i = 0; i < timed.size() && i < count; ++i) slowest.push_back(timed[i].second);
  return slowest;
}

}  // namespace gridfuzz::reports
