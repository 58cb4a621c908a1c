#pragma once
// `gridfuzz baseline accept`'s rule (docs/REPORTS.md, "Accepting a change"): a run's rows replace
// the baseline's rows of the same (device, case_id), the baseline's other rows are kept, the run's
// new cases are added; or the accept is refused, with why, when the run cannot vouch for a
// baseline: a modified build, nothing run on a device, another device, fewer cases.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "gridfuzz/reports/csv_row.hpp"

namespace gridfuzz::reports {

struct AcceptOptions {
  // fnmatch patterns on `kernel` or `kernel/variant` ('mlx.*', 'affine.qmm/hopper'); a run row is
  // taken when one matches. Empty: every row is taken.
  std::vector<std::string> only;
  // Take a run that lacks some of the baseline's cases of the accepted kernels x variants (the
  // baseline's rows of those are kept as they are).
  bool partial = false;
};

// A replaced row whose verdict changed.
struct VerdictChange {
  std::string device, kernel, variant, case_id, before, after, replay;
};

struct AcceptResult {
  // Why the accept is refused (one sentence); nullopt when it is not. Nothing else is set then.
  std::optional<std::string> refused;
  std::vector<CsvRow> merged;  // the baseline's rows in their order (replaced in place), then the new ones
  std::size_t taken = 0;       // run rows --only selected
  std::size_t replaced_other_verdict = 0, replaced_same_verdict = 0, added = 0, kept = 0;
  std::vector<VerdictChange> verdict_changes;  // in the baseline's order
  std::vector<std::string> commits;            // the taken rows' distinct `commit`s, first seen first
};

// Whether `only` selects the row (its kernel or kernel/variant matches a pattern); an empty list
// selects every row.
bool accept_selects(const std::vector<std::string>& only, const CsvRow& row);

// Merges `run` into `baseline` (each one row per device and case_id, as merge_rows leaves them).
// An empty baseline is a first one: every taken row is new, and they must be of one device.
AcceptResult accept_run(const std::vector<CsvRow>& baseline, const std::vector<CsvRow>& run,
                        const AcceptOptions& options);

}  // namespace gridfuzz::reports
