#pragma once
// Launches one HopperGemm configuration directly (hopper_configs.hpp): CUTLASS's own arguments,
// grid and shared memory, every CUDA call checked with the geometry in the message.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "hopper_gemm.cuh"

namespace gridfuzz::bench {

template <class Gemm>
void launch_config(const char* name, const affine::HopperQmmArgs& a, CUstream stream) {
  using Kernel = typename Gemm::GemmKernel;
  const auto geometry = [&](dim3 grid) {
    return std::string(name) + " (M'=N " + std::to_string(a.n) + ", N'=tokens " + std::to_string(a.tokens) + ", K " +
           std::to_string(a.k) + ", grid " + std::to_string(grid.x) + "," + std::to_string(grid.y) + "," +
           std::to_string(grid.z) + ", block " + std::to_string(Kernel::MaxThreadsPerBlock) + ", smem " +
           std::to_string(Kernel::SharedStorageSize) + ")";
  };
  const typename Kernel::Arguments args = Gemm::arguments(a);
  if (!Kernel::can_implement(args)) throw std::invalid_argument(geometry(dim3()) + ": CUTLASS's can_implement refuses it");
  if (Kernel::get_workspace_size(args) != 0) throw std::invalid_argument(geometry(dim3()) + ": asks for a workspace");
  typename Kernel::Params params = Kernel::to_underlying_arguments(args, nullptr);
  const dim3 grid = Kernel::get_grid_shape(params), block = Kernel::get_block_shape();
  static const cudaError_t attribute = cudaFuncSetAttribute(
      cutlass::device_kernel<Kernel>, cudaFuncAttributeMaxDynamicSharedMemorySize, Kernel::SharedStorageSize);
  if (attribute != cudaSuccess)
    throw std::runtime_error(geometry(grid) + ": cudaFuncSetAttribute: " + cudaGetErrorString(attribute));
  cutlass::device_kernel<Kernel><<<grid, block, Kernel::SharedStorageSize, stream>>>(params);
  if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess)
    throw std::runtime_error(geometry(grid) + ": launch: " + cudaGetErrorString(e));
}

}  // namespace gridfuzz::bench
