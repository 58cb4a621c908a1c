#pragma once
// A crossing found from a start shape (model_boundaries, size_crossings) is tested with the start
// shape's other axes. Where that case is big, the same crossing usually holds with some of those
// axes much smaller: an output-size crossing of a GEMM along tokens does not depend on its inner
// dimension, which multiplies the GPU time of the call and of its split reference. Moving such an
// axis down keeps what the cases test and cuts what they cost; the whole plan is otherwise tens of
// GPU-hours (evidence/2026-12-02-h200). Pure host code, from the model alone, so it holds for
// plugin kernels as for the built-in ones.
#include <cstdint>
#include <set>
#include <string>

#include "gridfuzz/device_limits.hpp"
#include "gridfuzz/kernel.hpp"
#include "gridfuzz/search/strategies.hpp"

namespace gridfuzz {

// Cases of at most this many device bytes (sweep_plan.hpp, case_device_bytes) cost milliseconds:
// their crossings are tested at the start shape as found.
inline constexpr std::uint64_t kCheaperCrossingAboveBytes = std::uint64_t{1} << 30;

// `start` with each integer axis that is not the crossing's own axis lowered, one after the other,
// to the smallest value tried (the axis minimum, then start >> 12 .. start >> 1) at which every
// planned point of the crossing (first_bad + d*step, d in [-before, after]) is as valid as before
// and keeps its prediction (outcome, index wrap, the launches' names: the same dispatch) and, for
// a size crossing, its side of the threshold, while the case at first_bad needs fewer device bytes.
// An axis in `model_axes` (a profile's own values: the model's shape) moves only where, besides,
// every point keeps the model's boundary itself: each launch's block and shared memory, each grid
// dimension that turns along the crossing, and the riskiest index (its name and largest value).
// So a GEMV at a model's 10^5 tokens keeps its turning grid and its largest index, and loses
// the rows or columns that only multiply its work. Where a planned point predicts a wrapping
// index (whether a wrap shows depends on the addresses it reaches), every axis is held so, and
// each wrapping index keeps its largest value: only an axis none of them depends on moves. `start` itself when the case
// at first_bad needs at most `above_bytes`, or when no axis can move.
Params cheaper_crossing_start(const Kernel& kernel, const std::string& variant, const Params& start,
                              const ModelBoundary& crossing, const DeviceLimits& limits,
                              const std::set<std::string>& model_axes,
                              std::uint64_t above_bytes = kCheaperCrossingAboveBytes);

// Whether a planned point of the crossing from `start` predicts a wrapping index for `variant`:
// then cheaper_crossing_start held every axis to the model's boundary.
bool crossing_has_wrap(const Kernel& kernel, const std::string& variant, const Params& start,
                       const ModelBoundary& crossing, const DeviceLimits& limits);

// What the model predicts at each planned point of `crossing` from `start`, as one line: per point
// whether it is a case, its outcome and index wrap, the launches' distinct names (their count aside:
// a chunked call issues more chunks at a bigger shape) and, for a size crossing, the size's side of
// its width. Two crossings of one variant with the same rule and the same line test the same
// thing at different shapes (repeated_crossings.hpp).
std::string crossing_points_line(const Kernel& kernel, const std::string& variant, const Params& start,
                                 const ModelBoundary& crossing, const DeviceLimits& limits);

// Whether the model predicts the same for `variant` at every planned point of `crossing` from
// `start` (outcome, index wrap, the launches' distinct names): the crossing is another variant's,
// and this one is steady across it. `as_observed`: a refused call (or a host error) compares by its
// outcome alone, since nothing runs there for a wrap to show.
bool steady_across(const Kernel& kernel, const std::string& variant, const Params& start, const ModelBoundary& crossing,
                   const DeviceLimits& limits, bool as_observed = false);

// Whether the model predicts a failure for `variant` at every valid planned point of `crossing`
// from `start` (a refused launch, a host error or a wrapping index at each): a failure already
// there hides whatever the crossing would show.
bool fails_at_every_point(const Kernel& kernel, const std::string& variant, const Params& start,
                          const ModelBoundary& crossing, const DeviceLimits& limits);

}  // namespace gridfuzz
