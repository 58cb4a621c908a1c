#pragma once
// Where a run's time went (schema 1.4's phase columns), per kernel and per tier of the sweep that
// made the cases (schema 1.5's `tier`): what a change to the engine's throughput is judged by,
// before and after, and what each part of a sweep costs.
#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gridfuzz/core/vocabulary.hpp"
#include "gridfuzz/reports/csv_row.hpp"

namespace gridfuzz::reports {

// The phase columns, in the order a case passes them, then what lies between them inside the
// runner ("other": case_ms less the phases) and the parent's wait beyond it (worker_ms).
inline constexpr std::array<std::string_view, 10> kPhaseNames{"plan",    "alloc", "fill",  "call",  "reference",
                                                              "compare", "cpu",   "timing", "other", "worker"};

// The sum over some rows: one kernel's or every kernel's, of one tier or of every tier.
struct PhaseTotals {
  std::optional<std::string> kernel;  // none: every kernel of the run
  bool every_tier = false;            // over every tier; else over the rows of `tier` alone
  std::optional<CaseTier> tier;       // none: rows no sweep made (and rows of files before 1.5)
  std::size_t cases = 0;              // rows with phase columns
  std::array<double, kPhaseNames.size()> ms{};
  double total_ms() const;            // case_ms + worker_ms over the rows
};

// The table's rows: per kernel (by name) one entry per tier (in sweep order, rows without a tier
// last), then the kernel's sum over its tiers when it has more than one; then the same for the
// whole run (its tiers only when it has more than one kernel and more than one tier), ending with
// the run's sum. Rows without phase columns (static, schema < 1.4, cases that left no result) are
// not counted. Empty when no row has them. Summed as the rows are visited, in their order.
class PhaseSums {
 public:
  PhaseSums();
  void add(const CsvRow& row);
  std::vector<PhaseTotals> totals() const;

 private:
  struct Group {
    std::map<std::size_t, PhaseTotals> by_tier;  // by the tier's place in the sweep
    PhaseTotals sum;
  };
  std::map<std::string, Group> by_kernel_;
  Group run_;
};
std::vector<PhaseTotals> phase_totals(const std::vector<CsvRow>& rows);

// The Markdown section of report.md: seconds and share of each phase, per kernel and tier.
std::string phase_section(const std::vector<PhaseTotals>& totals);
std::string phase_section(const std::vector<CsvRow>& rows);

}  // namespace gridfuzz::reports
