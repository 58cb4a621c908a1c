#pragma once
// Where a run's time went (schema 1.4's phase columns), per kernel: what a change to the engine's
// throughput is judged by, before and after.
#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "gridfuzz/reports/csv_row.hpp"

namespace gridfuzz::reports {

// The phase columns, in the order a case passes them, then what lies between them inside the
// runner ("other": case_ms less the phases) and the parent's wait beyond it (worker_ms).
inline constexpr std::array<std::string_view, 10> kPhaseNames{"plan",    "alloc", "fill",  "call",  "reference",
                                                              "compare", "cpu",   "timing", "other", "worker"};

struct PhaseTotals {
  std::string kernel;                        // "all" for the whole run
  std::size_t cases = 0;                     // rows with phase columns
  std::array<double, kPhaseNames.size()> ms{};
  double total_ms() const;                   // case_ms + worker_ms over the rows
};

// One entry per kernel (by name), then "all"; rows without phase columns (static, schema < 1.4,
// cases that left no result) are not counted. Empty when no row has them.
std::vector<PhaseTotals> phase_totals(const std::vector<CsvRow>& rows);

// The Markdown section of report.md: seconds and share of each phase, per kernel.
std::string phase_section(const std::vector<CsvRow>& rows);

}  // namespace gridfuzz::reports
