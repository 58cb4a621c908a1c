#pragma once
// The Hopper qmm (hopper_qmm.cu, CUTLASS sm90 mixed-input GEMM, sm_90a only): host-only interface,
// so the adapters stay plain C++. Present in every build; without the sm_90a kernel compiled in,
// hopper_qmm_compiled() is false and the other two throw (hopper_qmm_stub.cpp).
#include <cuda.h>

#include <cstdint>

#include "gridfuzz/affine/hopper_plan.hpp"
#include "gridfuzz/device/function.hpp"
#include "gridfuzz/device/launcher.hpp"
#include "gridfuzz/launch_spec.hpp"

namespace gridfuzz::affine {

// out[tokens, n] (bf16) = x[tokens, k] (bf16) * (scale*q + bias)[n, k]^T, 4-bit q packed as MLX
// packs it, scales/biases in the N-major copies [k/group, n] (hopper_prepack.cu).
struct HopperQmmArgs {
  const void* x = nullptr;
  const void* w = nullptr;
  const void* scales_mn = nullptr;
  const void* biases_mn = nullptr;
  void* out = nullptr;
  std::int64_t tokens = 0, n = 0, k = 0;
  int group_size = 64;
  std::uint64_t sm_count = 0;
};

// Weight preparation: dst[g, r] = src[r, g] for n rows of `groups` 16-bit values (MLX's K-major
// scales or biases to the N-major copies CUTLASS reads). Stream-ordered.
void groups_to_n_major(CUdeviceptr src, CUdeviceptr dst, std::uint64_t n, std::uint64_t groups, CUstream stream);

bool hopper_qmm_compiled();
// The kernel built for `tile` (hopper_plan.hpp's hopper_tile picks it per call).
const device::Function& hopper_qmm_function(HopperTile tile);
// Builds CUTLASS's kernel parameters (TMA descriptors included), checks that `spec` (the plan's
// launch) has CUTLASS's own grid, block and shared memory (std::logic_error if not), and launches
// through `launcher` (checked: a refused launch throws device::LaunchError).
const device::LaunchRecord& launch_hopper_qmm(const LaunchSpec& spec, const HopperQmmArgs& args,
                                              device::Launcher& launcher, CUstream stream);

}  // namespace gridfuzz::affine
