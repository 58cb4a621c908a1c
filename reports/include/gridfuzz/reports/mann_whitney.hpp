#pragma once
// The Mann-Whitney U test (Wilcoxon rank-sum) of two independent samples: does one tend to be
// larger than the other? It asks nothing of the samples' distribution (GPU times are skewed, with
// a long tail of slow outliers), only that each sample's values are independent draws.
// The two-sided p-value is the one scipy.stats.mannwhitneyu(x, y, alternative="two-sided")
// gives with its default method="auto" (Google Benchmark's tools/compare.py uses it): the exact
// distribution of U when there are no ties and one sample has at most 8 values, else the normal
// approximation with the tie correction and the continuity correction.
#include <span>

namespace gridfuzz::reports {

struct MannWhitney {
  double u = 0;     // U of x: pairs (x_i, y_j) with x_i > y_j, ties counted one half
  double p = 1;     // two-sided p-value
  bool exact = false;  // p from the exact distribution (else the normal approximation)
};

// Either sample empty: U 0, p 1 (nothing to tell). All values equal: p 1.
MannWhitney mann_whitney_u(std::span<const double> x, std::span<const double> y);

}  // namespace gridfuzz::reports
