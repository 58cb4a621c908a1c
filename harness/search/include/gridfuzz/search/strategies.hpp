#pragma once
// Search strategies on one axis: exact bisection of a monotone predicate, the scan that finds
// every change of a yes/no property along an axis, and the boundaries the model predicts for a
// kernel (found on the CPU, no GPU), which sweeps then test at boundary-2..+2.
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "gridfuzz/device_limits.hpp"
#include "gridfuzz/kernel.hpp"

namespace gridfuzz {

struct BisectResult {
  std::optional<std::int64_t> last_good;   // none when lo is already bad
  std::optional<std::int64_t> first_bad;   // none when hi is still good
  int probes = 0;
};

// The first value in [lo, hi] (on the grid lo + k*step) where `is_bad` holds, assuming it stays
// bad from there on. Probes lo and hi first, then halves: at most ceil(log2(points)) + 2 calls.
BisectResult bisect_first_bad(std::int64_t lo, std::int64_t hi, std::int64_t step,
                              const std::function<bool(std::int64_t)>& is_bad);

// `base` with `axis` set to the first value >= `value` that check() accepts (at most 64 steps
// on), or nothing.
std::optional<Params> valid_params_at(const Kernel& k, Params base, const AxisSpec& axis, std::int64_t value);

// One change of a property along an axis: from `at` on it is `now` (at the axis minimum, a
// property that already holds there is reported as a change to true).
struct AxisChange {
  std::size_t signal = 0;   // index into the properties `states` returns
  std::int64_t at = 0;
  bool now = true;
};

// Every change of each of several yes/no properties of the case along one integer axis, the
// other axes at `base`. `states(p)` returns them all at once (always the same count), so a point
// is evaluated once for every property. The axis is sampled at four points per octave and every
// change between neighbours is bisected to its exact value, so the properties need not be
// monotone. Values check() rejects are replaced by the next valid one; an axis whose minimum or
// maximum has no valid value is skipped (no change reported).
std::vector<AxisChange> axis_changes(const Kernel& k, const Params& base, const AxisSpec& axis,
                                     const std::function<std::vector<bool>(const Params&)>& states);

// visit(axis, at_max) for each integer axis of `k` not in `skip_axes` whose maximum has a valid
// value (at_max: `base` with the axis there, valid_params_at): the axes model_boundaries and
// size_crossings search.
void for_each_searched_axis(const Kernel& k, const Params& base, const std::set<std::string>& skip_axes,
                            const std::function<void(const AxisSpec& axis, const Params& at_max)>& visit);

struct ModelBoundary {
  std::string axis;
  std::string signal;        // "launch", the index's name, or the size that crosses (size_crossings)
  std::int64_t first_bad = 0;  // the first value past the change (bad, or good again when !becomes_bad)
  std::string rule;          // at the bad side: "refuse:grid.z", "host-error:div-by-zero", "wrap:dst",
                             // "size:<what> >= 2^31"
  bool becomes_bad = true;   // false: the prediction turns good again here (e.g. an int32 product
                             // that wrapped back to a legal value), or the size falls back below
  // The cases planned around it: values first_bad + d*step for d in [-before, after].
  int before = 2, after = 2;
  std::uint64_t threshold = 0;  // a size crossing's width (2^k), 0 for the model's boundaries
};

// For each integer axis not in `skip_axes` (the others at `base`), every place where the prediction changes between
// good and bad: the launch is refused (or the host code fails), or an index wraps. The predicate
// need not be monotone (an int32 l = out.size()/(m*n) is 0, then a wrapped legal value, ...).
std::vector<ModelBoundary> model_boundaries(const Kernel& kernel, const std::string& variant, const Params& base,
                                            const DeviceLimits& limits,
                                            const std::set<std::string>& skip_axes = {});

}  // namespace gridfuzz
