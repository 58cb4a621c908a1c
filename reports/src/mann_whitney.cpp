#include "gridfuzz/reports/mann_whitney.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>
#include <vector>

namespace gridfuzz::reports {
namespace {

// P(U >= u) for samples of m and n values without ties: the number of arrangements of the
// m + n ranks whose U is each value, counted by the recurrence of Mann and Whitney (1947):
// the largest value is either one of x (it beats all n of y) or one of y.
double exact_upper_tail(std::size_t m, std::size_t n, double u) {
  const std::size_t max_u = m * n;
  // counts[j][k]: arrangements of j values of x and (columns) the current number of y with U = k.
  std::vector<std::vector<double>> prev(m + 1, std::vector<double>(max_u + 1, 0.0)), cur = prev;
  for (std::size_t j = 0; j <= m; ++j) prev[j][0] = 1;  // no y: U = 0, one arrangement
  for (std::size_t ny = 1; ny <= n; ++ny) {
    for (std::size_t j = 0; j <= m; ++j) {
      std::fill(cur[j].begin(), cur[j].end(), 0.0);
      for (std::size_t k = 0; k <= j * ny; ++k) {
        double c = prev[j][k];                                 // largest is a y: beats no x
        if (j > 0 && k >= ny) c += cur[j - 1][k - ny];         // largest is an x: beats every y
        cur[j][k] = c;
      }
    }
    std::swap(prev, cur);
  }
  const std::vector<double>& counts = prev[m];
  const double total = std::accumulate(counts.begin(), counts.end(), 0.0);
  double tail = 0;
  for (std::size_t k = 0; k <= max_u; ++k)
    if (static_cast<double>(k) >= u - 1e-9) tail += counts[k];
  return tail / total;
}

}  // namespace

MannWhitney mann_whitney_u(std::span<const double> x, std::span<const double> y) {
  MannWhitney r;
  const std::size_t m = x.size(), n = y.size();
  if (m == 0 || n == 0) return r;
  // Mid-ranks of the pooled values (ties share the mean of their ranks) and the ties' sizes.
  std::vector<std::pair<double, bool>> pooled;  // value, is of x
  pooled.reserve(m + n);
  for (const double v : x) pooled.emplace_back(v, true);
  for (const double v : y) pooled.emplace_back(v, false);
  std::sort(pooled.begin(), pooled.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  double rank_sum_x = 0, tie_term = 0;
  bool ties = false;
  for (std::size_t i = 0; i < pooled.size();) {
    std::size_t j = i;
    while (j < pooled.size() && pooled[j].first == pooled[i].first) ++j;
    const double t = static_cast<double>(j - i), mid_rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;
    for (std::size_t k = i; k < j; ++k)
      if (pooled[k].second) rank_sum_x += mid_rank;
    tie_term += t * t * t - t;
    ties = ties || t > 1;
    i = j;
  }
  const double dm = static_cast<double>(m), dn = static_cast<double>(n);
  r.u = rank_sum_x - dm * (dm + 1) / 2;
  // Two-sided: the tail beyond the larger of U and its mirror m*n - U, doubled.
  const double u_far = std::max(r.u, dm * dn - r.u);
  if (!ties && std::min(m, n) <= 8) {
    r.exact = true;
    r.p = std::min(1.0, 2 * exact_upper_tail(m, n, u_far));
    return r;
  }
  const double total = dm + dn;
  const double variance = dm * dn / 12 * ((total + 1) - tie_term / (total * (total - 1)));
  if (variance <= 0) return r;  // every value the same: no evidence either way, p 1
  const double z = (u_far - dm * dn / 2 - 0.5) / std::sqrt(variance);  // 0.5: continuity correction
  r.p = std::clamp(std::erfc(z / std::sqrt(2.0)), 0.0, 1.0);                // 2 * P(Z > z)
  return r;
}

}  // namespace gridfuzz::reports
