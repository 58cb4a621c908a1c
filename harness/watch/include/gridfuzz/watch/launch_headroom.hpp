#pragma once
// gridfuzz watch's judgement: the launches a program made (launch_log.hpp), judged with the
// geometry model (predictor.hpp) against a device's limits, per kernel: how many, the largest
// extents seen, how close each came to each limit, which were refused. Pure host code.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gridfuzz/device_limits.hpp"
#include "gridfuzz/predictor.hpp"
#include "gridfuzz/watch/launch_log.hpp"

namespace gridfuzz::watch {

// The largest value of one limit's quantity among a kernel's launches, and the limit.
// rule: grid.x/y/z, block.x/y/z, block.threads, smem.default or smem.optin (the function's
// shared memory, static and dynamic, against the limit that applies to it: opt-in once its
// maximum dynamic size was raised past the default), regs (registers one block is given).
struct LimitUse {
  Rule rule = Rule::grid_x;
  std::uint64_t value = 0;
  std::uint64_t limit = 0;
  double fraction() const { return limit == 0 ? 0.0 : static_cast<double>(value) / static_cast<double>(limit); }
  std::string describe() const;  // "grid.y 61440 of 65535: 93.8 %"
};

struct KernelHeadroom {
  std::string symbol;                 // the key: the symbol as the driver named it ("" unknown)
  std::string name;                   // readable: demangled, without return type and parameters
  std::uint64_t launches = 0;
  std::uint64_t refused = 0;          // launches the driver (or runtime) did not accept
  std::uint64_t zero_grids = 0;       // launches with a grid extent of 0
  std::uint64_t model_disagreements = 0;  // launches the model judges otherwise than the driver did
  Dim3 max_grid{0, 0, 0}, max_block{0, 0, 0};
  std::uint64_t max_threads = 0, max_smem_bytes = 0;
  int max_regs = 0;
  std::vector<LimitUse> uses;         // one per limit (LimitUse), of geometry-known launches
  std::optional<LimitUse> tightest;   // the largest fraction among `uses`
  std::string first_error;            // the error of the first refused launch in the log
  std::string first_refusal;          // what that launch was: "grid=(1,65536,1) block=(..) smem=0: model refuse:grid.y (grid.y 65536 > 65535)"
};

// Judges the launches (counts summed over processes) kernel by kernel, ranked: kernels with a
// refused or zero-grid launch first, then by the tightest limit, largest fraction first.
std::vector<KernelHeadroom> judge_launches(const std::vector<WatchedLaunch>& launches, const DeviceLimits& limits);

// "at::native::vectorized_elementwise_kernel<4, ...>" from a mangled symbol; the symbol itself when
// it does not demangle, "(unnamed)" when empty.
std::string readable_kernel_name(const std::string& symbol);

// The launch as the model sees it: shared memory opt-in when the function's maximum dynamic
// size was raised past the default.
LaunchSpec launch_spec_of(const WatchedLaunch& launch, const DeviceLimits& limits);

}  // namespace gridfuzz::watch
