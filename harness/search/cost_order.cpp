#include "gridfuzz/search/cost_order.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <tuple>
#include <utility>

#include "gridfuzz/engine/shared_reference.hpp"

namespace gridfuzz {
namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

CaseSize size_of(const SweepTarget& t, std::size_t i) { return i < t.sizes.size() ? t.sizes[i] : CaseSize{}; }

}  // namespace

double CostFit::at(const CaseSize& size) const {
  if (!ok) return 0;
  double ms = 0;
  if (power_law) {
    const double ln = c[0] + c[1] * std::log1p(static_cast<double>(size.bytes)) +
                      c[2] * std::log1p(static_cast<double>(size.threads));
    ms = std::exp(std::min(ln, 40.0));  // past e^40 ms the rank is all that counts
  } else {
    ms = fixed_ms + ms_per_byte * static_cast<double>(size.bytes);
  }
  return std::max(ms, floor_ms);
}

namespace {

// Least squares for ln ms over [1, ln(1 + bytes), ln(1 + threads)]: the normal equations, solved by
// elimination with partial pivoting; false when the sizes do not spread enough to fix three
// coefficients (every case the same threads, say).
bool fit_power_law(const std::vector<std::pair<CaseSize, double>>& size_ms, double (&c)[3]) {
  double a[3][4] = {};
  for (const auto& [size, ms] : size_ms) {
    const double x[3] = {1, std::log1p(static_cast<double>(size.bytes)), std::log1p(static_cast<double>(size.threads))};
    const double y = std::log(std::max(ms, 1e-6));
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) a[i][j] += x[i] * x[j];
      a[i][3] += x[i] * y;
    }
  }
  for (int col = 0; col < 3; ++col) {
    int pivot = col;
    for (int r = col + 1; r < 3; ++r)
      if (std::fabs(a[r][col]) > std::fabs(a[pivot][col])) pivot = r;
    if (std::fabs(a[pivot][col]) < 1e-9 * std::max(1.0, std::fabs(a[0][0]))) return false;
    for (int j = 0; j < 4; ++j) std::swap(a[col][j], a[pivot][j]);
    for (int r = 0; r < 3; ++r) {
      if (r == col) continue;
      const double f = a[r][col] / a[col][col];
      for (int j = col; j < 4; ++j) a[r][j] -= f * a[col][j];
    }
  }
  for (int i = 0; i < 3; ++i) c[i] = a[i][3] / a[i][i];
  return std::isfinite(c[0]) && std::isfinite(c[1]) && std::isfinite(c[2]);
}

}  // namespace

CostFit fit_cost(std::vector<std::pair<CaseSize, double>> size_ms) {
  CostFit r;
  if (size_ms.empty()) return r;
  std::sort(size_ms.begin(), size_ms.end(),
            [](const auto& a, const auto& b) { return std::tie(a.first.bytes, a.second) < std::tie(b.first.bytes, b.second); });
  r.ok = true;
  r.floor_ms = size_ms.front().second;
  for (const auto& [size, ms] : size_ms) r.floor_ms = std::min(r.floor_ms, ms);
  if (size_ms.size() >= kMinLogFitPoints && fit_power_law(size_ms, r.c)) {
    r.power_law = true;
    return r;
  }
  const std::size_t n = size_ms.size();
  const std::size_t quarter = std::max<std::size_t>(1, n / 4);
  std::vector<double> small;
  for (std::size_t i = 0; i < quarter; ++i) small.push_back(size_ms[i].second);
  r.fixed_ms = median(small);
  std::vector<double> per_byte;
  for (std::size_t i = n - quarter; i < n; ++i)
    if (size_ms[i].first.bytes > 0 && size_ms[i].second > r.fixed_ms)
      per_byte.push_back((size_ms[i].second - r.fixed_ms) / static_cast<double>(size_ms[i].first.bytes));
  if (!per_byte.empty()) r.ms_per_byte = median(per_byte);
  return r;
}

std::vector<CaseRef> cost_order(const std::vector<SweepTarget>& targets, const MeasuredCaseMs& measured,
                                std::uint64_t seed) {
  // The boundary cases, and what each is known to have cost.
  struct Entry {
    CaseRef ref;
    CaseSize size;
    std::optional<double> ms;
  };
  std::vector<Entry> entries;
  using Outcome = CaseSize::Outcome;
  using Points = std::vector<std::pair<CaseSize, double>>;
  std::map<std::tuple<std::string, std::string, Outcome>, Points> by_variant;
  std::map<std::pair<std::string, Outcome>, Points> by_kernel;
  Points pooled_runs;
  std::map<std::string, double> fastest_of_kernel;
  for (std::size_t t = 0; t < targets.size(); ++t)
    for (std::size_t i = 0; i < targets[t].boundary_cases.size(); ++i) {
      if (i < targets[t].tiers.size() && targets[t].tiers[i] == kSpeed) continue;
      Case c = targets[t].boundary_cases[i];
      c.seed = seed;  // the id the sweep gives it
      Entry e{{t, i}, size_of(targets[t], i), std::nullopt};
      if (const auto it = measured.find(c.id()); it != measured.end()) {
        e.ms = it->second;
        by_variant[{c.kernel, c.variant, e.size.predicted}].emplace_back(e.size, it->second);
        by_kernel[{c.kernel, e.size.predicted}].emplace_back(e.size, it->second);
        if (e.size.predicted == Outcome::runs) pooled_runs.emplace_back(e.size, it->second);
        const auto [f, first] = fastest_of_kernel.emplace(c.kernel, it->second);
        if (!first) f->second = std::min(f->second, it->second);
      }
      entries.push_back(std::move(e));
    }
  // Never measured: the nearest fit there is (docs above); with nothing measured at all, device
  // bytes alone rank them.
  const CostFit all = fit_cost(pooled_runs);
  std::map<std::tuple<std::string, std::string, Outcome>, CostFit> variant_fit;
  std::map<std::pair<std::string, Outcome>, CostFit> kernel_fit;
  for (const auto& [key, v] : by_variant) variant_fit[key] = fit_cost(v);
  for (const auto& [key, v] : by_kernel) kernel_fit[key] = fit_cost(v);
  const auto fitted = [&](const Case& c, Outcome o) -> const CostFit* {
    if (const auto it = variant_fit.find({c.kernel, c.variant, o}); it != variant_fit.end()) return &it->second;
    if (const auto it = kernel_fit.find({c.kernel, o}); it != kernel_fit.end()) return &it->second;
    return nullptr;
  };
  const auto estimate = [&](const Entry& e) {
    if (e.ms) return *e.ms;
    if (by_variant.empty()) return static_cast<double>(e.size.bytes);  // nothing of the plan measured
    const Case& c = targets[e.ref.target].boundary_cases[e.ref.index];
    if (const CostFit* f = fitted(c, e.size.predicted)) return f->at(e.size);
    if (e.size.predicted == Outcome::refused) {
      const auto it = fastest_of_kernel.find(c.kernel);
      return it != fastest_of_kernel.end() ? it->second : 0.0;
    }
    if (const CostFit* f = fitted(c, Outcome::runs)) return f->at(e.size);
    return all.ok ? all.at(e.size) : static_cast<double>(e.size.bytes);
  };
  // The variants of one shape as one group, costed together, in target order within it.
  struct Group {
    std::vector<CaseRef> members;
    double cost = 0;
    bool first_of_a_target = false;
  };
  std::vector<Group> groups;
  std::unordered_map<std::string, std::size_t> group_of;
  std::vector<double> cheapest(targets.size(), std::numeric_limits<double>::infinity());
  std::vector<std::size_t> cheapest_group(targets.size(), std::numeric_limits<std::size_t>::max());
  std::vector<double> cost_of(entries.size());
  for (std::size_t k = 0; k < entries.size(); ++k) cost_of[k] = estimate(entries[k]);
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const Entry& e = entries[k];
    const Case& c = targets[e.ref.target].boundary_cases[e.ref.index];
    const auto [it, fresh] = group_of.emplace(reference_group_key(c), groups.size());
    if (fresh) groups.emplace_back();
    Group& g = groups[it->second];
    g.members.push_back(e.ref);
    g.cost += cost_of[k];
  }
  // Each target's cheapest case (by its own cost) marks its group to go first.
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const Entry& e = entries[k];
    if (cost_of[k] < cheapest[e.ref.target]) {
      cheapest[e.ref.target] = cost_of[k];
      cheapest_group[e.ref.target] =
          group_of.at(reference_group_key(targets[e.ref.target].boundary_cases[e.ref.index]));
    }
  }
  for (const std::size_t g : cheapest_group)
    if (g < groups.size()) groups[g].first_of_a_target = true;
  std::vector<std::size_t> order(groups.size());
  for (std::size_t g = 0; g < order.size(); ++g) order[g] = g;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::make_tuple(!groups[a].first_of_a_target, groups[a].cost) <
           std::make_tuple(!groups[b].first_of_a_target, groups[b].cost);
  });
  std::vector<CaseRef> out;
  out.reserve(entries.size());
  for (const std::size_t g : order) out.insert(out.end(), groups[g].members.begin(), groups[g].members.end());
  return out;
}

}  // namespace gridfuzz
