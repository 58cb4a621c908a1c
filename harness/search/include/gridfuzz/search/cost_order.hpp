#pragma once
// The boundary cases cheapest first, across every tier: under a time budget a sweep then sees as
// many of the plan's cases as the budget holds, and the few huge ones (GEMVs at 10^5-10^6 tokens,
// minutes each on an H200) are what it leaves out. A case's cost is its time measured before (a
// baseline's or an earlier sweep's `case_ms`, by case id); a case never measured gets a fit of its
// kernel x variant's measured cases on device bytes and launched threads (docs/MODELS.md,
// "Cheapest first"). Two rules keep what the tier order gave: each target's cheapest case comes
// first (a budget leaves no kernel x variant out), and the variants of one shape stay together
// (they share their split reference).
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "gridfuzz/search/sweep_plan.hpp"

namespace gridfuzz {

// Where a boundary case is: targets[target].boundary_cases[index].
struct CaseRef {
  std::size_t target = 0;
  std::size_t index = 0;
  friend bool operator==(const CaseRef&, const CaseRef&) = default;
};

// Milliseconds a case took before, by case id (the largest time seen of each).
using MeasuredCaseMs = std::unordered_map<std::string, double>;

// A kernel x variant's time as a function of its cases' sizes, fitted on its measured cases. With
// enough of them (kMinLogFitPoints, spread over sizes) a power law, least squares in log space:
// ln ms = c0 + c1 ln(1 + bytes) + c2 ln(1 + threads), so a GEMV's time follows its vectors (its
// threads) as well as its weights (its bytes). Else a line in bytes from medians: fixed_ms the
// median time of the smallest quarter by bytes, ms_per_byte the median (ms - fixed_ms) / bytes of
// the largest quarter. Neither predicts below the fastest case it was fitted on.
struct CostFit {
  bool ok = false;  // fitted on at least one case
  bool power_law = false;
  double c[3] = {0, 0, 0};
  double fixed_ms = 0, ms_per_byte = 0;
  double floor_ms = 0;
  double at(const CaseSize& size) const;
};
inline constexpr std::size_t kMinLogFitPoints = 8;
CostFit fit_cost(std::vector<std::pair<CaseSize, double>> size_ms);

// Every boundary case of `targets` (the speed tier left out: it is timed, and runs last) in the
// order to run them, each case known by its id under `seed` (the sweep's). A case never measured
// takes the fit of the measured cases of its kernel x variant with the same prediction (runs,
// wraps, refused), else of its kernel with that prediction; a wrap with neither takes the fit of
// the cases that run (it may run whole), a refused one the fastest time its kernel has; the rest
// the fit of every measured case that runs. With nothing measured, device bytes alone order them. Sizes come from each target's device_bytes and
// threads (SweepTarget); a case without them counts 0.
std::vector<CaseRef> cost_order(const std::vector<SweepTarget>& targets, const MeasuredCaseMs& measured,
                                std::uint64_t seed);

}  // namespace gridfuzz
