// Weight preparation for the Hopper qmm: CUTLASS's mixed-input GEMM reads scales and zeros N-major
// ([k/group, n], its StrideScale = Stride<_1, int64_t, int64_t>); MLX stores them K-major
// ([n, k/group]). The copy is made once per weight matrix (as a loader would), not per call.
#include <algorithm>

#include "gridfuzz/checked_math.hpp"
#include "gridfuzz/device/launcher.hpp"
#include "hopper_qmm.hpp"

namespace gridfuzz::affine {
namespace {

constexpr unsigned kThreads = 256;

// dst[g*n + r] = src[r*groups + g], 16-bit values, 64-bit indices.
__global__ void groups_to_n_major_kernel(const std::uint16_t* src, std::uint16_t* dst, std::uint64_t n,
                                         std::uint64_t groups) {
  const std::uint64_t total = n * groups;
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += stride) {
    const std::uint64_t g = i / n, r = i % n;
    dst[i] = src[r * groups + g];
  }
}

}  // namespace

void groups_to_n_major(CUdeviceptr src, CUdeviceptr dst, std::uint64_t n, std::uint64_t groups, CUstream stream) {
  const std::uint64_t total = n * groups;
  if (total == 0) return;
  auto* s = reinterpret_cast<const std::uint16_t*>(static_cast<std::uintptr_t>(src));
  auto* d = reinterpret_cast<std::uint16_t*>(static_cast<std::uintptr_t>(dst));
  void* args[] = {&s, &d, &n, &groups};
  static const device::Function fn =
      device::Function::from_symbol(reinterpret_cast<const void*>(&groups_to_n_major_kernel), "affine_groups_to_n_major");
  LaunchSpec spec;
  spec.name = "affine_groups_to_n_major";
  spec.block = {kThreads, 1, 1};
  spec.grid = {std::clamp<std::uint64_t>(ceil_div(total, kThreads), 1, 8192), 1, 1};
  device::Launcher launcher;
  launcher.launch_checked(fn, spec, args, stream);
}

}  // namespace gridfuzz::affine
