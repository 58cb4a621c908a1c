#pragma once
// Model-blind sweep targets. The boundaries of model_boundaries() exist only where an adapter's
// plan predicts a limit; a kernel whose bug is a 32-bit offset that nobody declared is found only
// if the sweep goes where some size of the call crosses 2^31 or 2^32. These are computed from
// what every adapter declares anyway (its buffers and its launches), so they work for plugins and
// upstream kernels that declare no index expressions.
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "gridfuzz/device_limits.hpp"
#include "gridfuzz/kernel.hpp"
#include "gridfuzz/search/strategies.hpp"

namespace gridfuzz {

// A size of one call that a 32-bit index over it would have to hold.
struct CallSize {
  std::string name;     // "buffer y elements", "launch threads", "launch threads.z"
  std::uint64_t value = 0;
};

// The sizes of the call at `p`: every buffer's element count and byte size, and over the planned
// launches the largest total thread count (grid x block) and the largest per-dimension thread
// count (grid.d x block.d). Products saturate at 2^64-1.
std::vector<CallSize> call_sizes(const Kernel& kernel, const std::string& variant, const Params& p,
                                 const DeviceLimits& limits);

// The thresholds a 32-bit index breaks at: 2^31 (int) and 2^32 (unsigned).
inline constexpr std::uint64_t kSizeThresholds[] = {std::uint64_t{1} << 31, std::uint64_t{1} << 32};

// For each integer axis not in `skip_axes` (the others at `base`), every value at which one of call_sizes() crosses
// one of kSizeThresholds (rule "size:<name> >= 2^31"; becomes_bad is true on the way up).
std::vector<ModelBoundary> size_crossings(const Kernel& kernel, const std::string& variant, const Params& base,
                                          const DeviceLimits& limits,
                                            const std::set<std::string>& skip_axes = {});

}  // namespace gridfuzz
