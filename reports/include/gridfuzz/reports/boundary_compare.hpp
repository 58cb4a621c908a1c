#pragma once
// Whether a boundary line moved between two runs (the gate's rule 4, docs/REPORTS.md). A line's
// boundary is computed from whatever cases each CSV holds, so two runs that hold different points
// of one line (a run a time budget stopped short) can show different boundaries without anything
// having changed. Each side (predicted, and observed where both runs ran the line) is therefore
// compared over the points both runs judged:
//   - they disagree there, the rows of known races left out: the boundary moved;
//   - they agree without the races' rows and disagree with them: a race moved it (a race need not
//     show in every run), not a move;
//   - they agree, and the whole lines' first fails differ: a deciding case is in one run only,
//     the boundary was not reached by the other (coverage, not a move).
#include <string>

#include "gridfuzz/reports/boundary_table.hpp"

namespace gridfuzz::reports {

enum class BoundaryChange { same, not_reached, moved_by_race, moved };

struct BoundaryComparison {
  BoundaryChange change = BoundaryChange::same;
  // The sides of that change: "predicted first fail 8192 -> 8193",
  // "observed first fail 8192 -> none (not in the current run: 8192)",
  // "observed first fail 4096 -> none (a race: mlx.md#finding-6)".
  std::string what;
};

// `before` and `after` are the same line (kernel, variant, device, axis, along) of two runs.
BoundaryComparison compare_boundary(const BoundaryLine& before, const BoundaryLine& after);

}  // namespace gridfuzz::reports
