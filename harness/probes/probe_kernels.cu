// Kernels that do almost nothing, each shaped to test one launch limit. Each accepted launch
// writes a marker from its very last thread, so a launch is known to have run its whole grid.
#include "probe_kernels.cuh"

namespace gridfuzz::device {
namespace {

__device__ bool is_last_thread() {
  return blockIdx.x == gridDim.x - 1 && blockIdx.y == gridDim.y - 1 && blockIdx.z == gridDim.z - 1 &&
         threadIdx.x == blockDim.x - 1 && threadIdx.y == blockDim.y - 1 && threadIdx.z == blockDim.z - 1;
}

__global__ void probe_trivial(float*, unsigned* marker, unsigned smem_bytes) {
  extern __shared__ unsigned char dyn[];
  // Touch the last dynamic byte so the request is real, then mark completion.
  if (smem_bytes > 0 && threadIdx.x == 0) dyn[smem_bytes - 1] = 1;
  if (is_last_thread()) *marker = 1u;
}

__global__ void probe_static_smem(float*, unsigned* marker, unsigned smem_bytes) {
  __shared__ unsigned char fixed[4096];
  extern __shared__ unsigned char dyn[];
  fixed[threadIdx.x % 4096] = 1;
  if (smem_bytes > 0 && threadIdx.x == 0) dyn[smem_bytes - 1] = fixed[0];
  __syncthreads();
  if (is_last_thread()) *marker = fixed[0];
}

// Needs ~160 live values per thread; __maxnreg__ caps the allocation (the rest spills), giving a
// spread of register counts to probe the register-file limit with.
template <int MaxRegs>
__global__ void __maxnreg__(MaxRegs) probe_regs(float* data, unsigned* marker, unsigned) {
  constexpr int kLive = 160;
  float v[kLive];
#pragma unroll
  for (int i = 0; i < kLive; ++i) v[i] = data[(threadIdx.x + i) & 255];
#pragma unroll
  for (int r = 0; r < 4; ++r)
#pragma unroll
    for (int i = 0; i < kLive; ++i) v[i] = fmaf(v[i], v[(i + 1) % kLive], v[(i + 7) % kLive]);
  float sum = 0;
#pragma unroll
  for (int i = 0; i < kLive; ++i) sum += v[i];
  if (sum == 12345.0f) data[0] = sum;  // keeps the work alive; never true for our data
  if (is_last_thread()) *marker = 1u;
}

}  // namespace

const std::vector<ProbeSymbol>& probe_symbols() {
  static const std::vector<ProbeSymbol> symbols = {
      {ProbeKernel::trivial, "probe_trivial", reinterpret_cast<const void*>(&probe_trivial)},
      {ProbeKernel::static_smem, "probe_static_smem", reinterpret_cast<const void*>(&probe_static_smem)},
      {ProbeKernel::regs, "probe_regs_64", reinterpret_cast<const void*>(&probe_regs<64>)},
      {ProbeKernel::regs, "probe_regs_72", reinterpret_cast<const void*>(&probe_regs<72>)},
      {ProbeKernel::regs, "probe_regs_80", reinterpret_cast<const void*>(&probe_regs<80>)},
      {ProbeKernel::regs, "probe_regs_96", reinterpret_cast<const void*>(&probe_regs<96>)},
      {ProbeKernel::regs, "probe_regs_128", reinterpret_cast<const void*>(&probe_regs<128>)},
      {ProbeKernel::regs, "probe_regs_168", reinterpret_cast<const void*>(&probe_regs<168>)},
      {ProbeKernel::regs, "probe_regs_255", reinterpret_cast<const void*>(&probe_regs<255>)},
  };
  return symbols;
}

}  // namespace gridfuzz::device
