#pragma once
// Launches placed on both sides of every launch limit of a device (limit-2 .. limit+2 where the
// limit is a count, one warp either side for registers). The same list feeds the static table of
// `gridfuzz limits` and the GPU test that checks the Predictor against the driver.
#include <string>
#include <vector>

#include "gridfuzz/device_limits.hpp"
#include "gridfuzz/launch_spec.hpp"

namespace gridfuzz {

// Which probe kernel a probe launches; the kernels live in harness/probes/probe_kernels.cu.
enum class ProbeKernel { trivial, static_smem, regs };

struct ProbeKernelInfo {
  ProbeKernel kind = ProbeKernel::trivial;
  std::string name;       // "probe_trivial", "probe_regs_128", ...
  FuncAttributes attrs;   // from the device, or assumed for static analysis
};

struct LimitProbe {
  std::string boundary;   // "grid.z", "smem.optin", ...
  ProbeKernelInfo kernel;
  LaunchSpec launch;
};

// One probe list for `limits`. `kernels` must contain one trivial and one static_smem kernel;
// every regs kernel in it gets probes at its largest legal block (by the model) and one warp
// either side.
std::vector<LimitProbe> limit_probes(const DeviceLimits& limits, const std::vector<ProbeKernelInfo>& kernels);

// The largest block (a multiple of the warp size, <= max threads) a function with `regs` registers
// per thread can launch, by the register model.
std::uint64_t max_threads_for_regs(std::uint64_t regs, const DeviceLimits& limits);

// Probe kernels with assumed attributes, for static analysis without a device.
std::vector<ProbeKernelInfo> assumed_probe_kernels();

}  // namespace gridfuzz
