#pragma once
// Planning of affine.qmm's "hopper" variant (pure C++, no GPU): when CUTLASS's sm90 mixed-input
// GEMM (kernels/affine/cuda/hopper_qmm.cu) can run a call, and the one launch it then makes.
// Otherwise the variant runs the fixed mma.sync path, with the fixed plan.
#include <cstdint>
#include <optional>
#include <string>

#include "gridfuzz/affine/matmul_plan.hpp"
#include "gridfuzz/device_limits.hpp"
#include "gridfuzz/launch_plan.hpp"

namespace gridfuzz::affine {

// The compiled configuration; hopper_qmm.cu static_asserts each against CUTLASS's GemmKernel.
inline constexpr int kHopperTileM = 128;   // weight rows (out columns) per tile: CUTLASS's M'
inline constexpr int kHopperTileN = 128;   // tokens per tile: CUTLASS's N'
inline constexpr int kHopperTileK = 64;    // K per stage; the group size must be a multiple
inline constexpr int kHopperThreads = 384; // one producer and two consumer warpgroups
inline constexpr std::uint64_t kHopperSmemBytes = 207872;  // GemmKernel::SharedStorageSize

// Whether this build has the sm_90a kernel (CUTLASS headers found, sm_90a compiled).
bool hopper_path_built();

// Why the Hopper kernel cannot run this call on `limits`' device, or nullopt when it can.
std::optional<std::string> hopper_ineligible(const MatmulShape& s, const DeviceLimits& limits, bool built);

// CUTLASS's persistent grid for tiles_m x tiles_n tiles on sm_count SMs (cluster 1x1, swizzle 1,
// raster along M').
Dim3 hopper_grid(std::uint64_t tiles_m, std::uint64_t tiles_n, std::uint64_t sm_count);

struct HopperPlan {
  bool hopper = false;   // true: one CUTLASS launch; false: the fixed plan's launches
  std::string why_not;   // when !hopper: hopper_ineligible's reason
  LaunchPlan plan;
};
HopperPlan plan_hopper(const MatmulShape& s, const DeviceLimits& limits, bool built);
HopperPlan plan_hopper(const MatmulShape& s, const DeviceLimits& limits);  // built = hopper_path_built()

}  // namespace gridfuzz::affine
