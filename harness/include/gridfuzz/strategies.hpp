#pragma once
// Search strategies on one axis: exact bisection of a monotone predicate, and the boundaries the
// model predicts for a kernel (found on the CPU, no GPU), which sweeps then test at boundary-2..+2.
#include <cstdint>
#include <functional>
#include <optional>
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

struct ModelBoundary {
  std::string axis;
  std::string signal;        // "launch" or the index's name
  std::int64_t first_bad = 0;  // the first value past the change (bad, or good again when !becomes_bad)
  std::string rule;          // at the bad side: "refuse:grid.z", "host-error:div-by-zero", "wrap:dst"
  bool becomes_bad = true;   // false: the prediction turns good again here (e.g. an int32 product
                             // that wrapped back to a legal value)
};

// For each integer axis (the others at `base`), every place where the prediction changes between
// good and bad: the launch is refused (or the host code fails), or an index wraps. The predicate
// need not be monotone (an int32 l = out.size()/(m*n) is 0, then a wrapped legal value, ...): the
// axis is sampled at four points per octave and every change between neighbours is bisected to
// its exact value. Values the kernel's check() rejects are replaced by the next valid one.
std::vector<ModelBoundary> model_boundaries(const Kernel& kernel, const std::string& variant, const Params& base,
                                            const DeviceLimits& limits);

}  // namespace gridfuzz
