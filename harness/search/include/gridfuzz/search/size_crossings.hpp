#pragma once
// Model-blind sweep targets. The boundaries of model_boundaries() exist only where an adapter's
// plan predicts a limit; a kernel whose bug is an index of some width that nobody declared (an
// 8-bit counter, an int16 or uint16 index, an index computed through a float, an int32 or uint32
// offset) is found only if the sweep goes where some size of the call crosses that width. These
// are computed from what every adapter declares anyway (its axes, buffers and launches), so they
// work for plugins and upstream kernels that declare no index expressions.
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "gridfuzz/device_limits.hpp"
#include "gridfuzz/kernel.hpp"
#include "gridfuzz/search/strategies.hpp"

namespace gridfuzz {

// A size of one call that an index over it would have to hold.
struct CallSize {
  std::string name;     // "buffer y elements", "launch threads", "launch blocks.z", "axes rows*cols"
  std::uint64_t value = 0;
};

// The sizes of the call at `p`: every buffer's element count and byte size; over the planned
// launches the device accepts (a refused one runs no thread) the largest total thread count (grid x block), per-dimension thread count
// (grid.d x block.d), total block count, block count per dimension and threads per block.
// Products saturate at 2^64-1.
std::vector<CallSize> call_sizes(const Kernel& kernel, const std::string& variant, const Params& p,
                                 const DeviceLimits& limits);
// The same from a case already bound and planned (`plan` is bound.plan(limits)): the planner
// evaluates many points, and a plan can hold tens of thousands of launches.
std::vector<CallSize> call_sizes(const BoundCase& bound, const LaunchPlan& plan, const DeviceLimits& limits);

// The value of one size that size_crossings() watches, by its name: one of call_sizes() (0 when
// the call has no such size at `p`), "axis a" (the axis' value) or "axes a*b" (their product).
std::uint64_t call_size_named(const Kernel& kernel, const std::string& variant, const Params& p,
                              const DeviceLimits& limits, const std::string& name);
// The same from a case already bound at `p` and planned.
std::uint64_t call_size_named(const BoundCase& bound, const LaunchPlan& plan, const Params& p,
                              const DeviceLimits& limits, const std::string& name);

// The widths index code uses, and where each breaks: 2^8 (an 8-bit counter), 2^15 and 2^16
// (int16, uint16), 2^24 (the last integer a float holds exactly: an index computed through a
// float), 2^31 and 2^32 (int32, uint32). 2^53 (double) lies beyond any buffer a GPU holds.
inline constexpr std::uint64_t kSizeThresholds[] = {std::uint64_t{1} << 8,  std::uint64_t{1} << 15,
                                                    std::uint64_t{1} << 16, std::uint64_t{1} << 24,
                                                    std::uint64_t{1} << 31, std::uint64_t{1} << 32};

// The integer axes (not in `skip_axes`) that some size of the call depends on: the call's sizes
// at the axis minimum and maximum differ, the other axes at `base`. An index formed from two of
// them (row * cols, token * expert) is the product of their values.
std::vector<std::string> sized_axes(const Kernel& kernel, const std::string& variant, const Params& base,
                                    const DeviceLimits& limits, const std::set<std::string>& skip_axes = {});

// For each integer axis not in `skip_axes` (the others at `base`), every value at which one of
// call_sizes(), the axis' own value ("axis a", for a sized axis) or its product with another of
// sized_axes() ("axes a*b") crosses one of kSizeThresholds (rule "size:<name> >= 2^16";
// becomes_bad is true on the way up). Byte sizes are watched at 2^31 and 2^32 only. A change
// where the call is refused (or its host code fails) on either side is the model's boundary, not a
// size crossing, and is left out.
std::vector<ModelBoundary> size_crossings(const Kernel& kernel, const std::string& variant, const Params& base,
                                          const DeviceLimits& limits,
                                            const std::set<std::string>& skip_axes = {});

}  // namespace gridfuzz
