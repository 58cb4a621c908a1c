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
  std::int64_t first_bad = 0;
  std::string rule;          // "refuse:grid.z", "host-error:div-by-zero", "wrap:dst"
};

// For each integer axis (the others at `base`), every place where the prediction turns bad:
// the launch is refused (or the host code fails), or an index wraps. Values the kernel's check()
// rejects are replaced by the next valid one on the axis.
std::vector<ModelBoundary> model_boundaries(const Kernel& kernel, const std::string& variant, const Params& base,
                                            const DeviceLimits& limits);

}  // namespace gridfuzz
