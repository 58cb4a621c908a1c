#pragma once
// `gridfuzz baseline retire`'s rule (docs/REPORTS.md, "Retiring cases the plan left"): when the
// planner changes, a baseline keeps rows of cases no sweep makes any more; the gate counts them
// as unmatched, and its coverage falls for nothing the kernels did. Retiring keeps the baseline's
// rows whose case the current plan still holds (a static sweep of this build, one row a planned
// case) and drops the others; or it is refused, with why, when PLAN is not a plan.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "gridfuzz/reports/csv_row.hpp"

namespace gridfuzz::reports {

struct RetireResult {
  // Why the retire is refused (one sentence); nullopt when it is not. Nothing else is set then.
  std::optional<std::string> refused;
  std::vector<CsvRow> kept;  // the baseline's rows the plan holds, in their order
  // Rows dropped, per "kernel variant" in the baseline's order of first appearance.
  std::vector<std::pair<std::string, std::size_t>> retired;
  std::size_t retired_total = 0;
};

// Keeps the baseline's rows whose case_id is one of `plan`'s. `plan` must be a static sweep's rows
// (observed `static` in every row) of at least one case; a plan that holds none of the baseline's
// cases is refused (another seed, or the kernels of another build: retiring would empty it).
RetireResult retire_unplanned(const std::vector<CsvRow>& baseline, const std::vector<CsvRow>& plan);

}  // namespace gridfuzz::reports
