#include "read_only_kernel.cuh"

#include <cuda_runtime.h>

#include <string>

#include "gridfuzz/device/cuda_error.hpp"

namespace gridfuzz::bench {
namespace {

__global__ void read_only(const uint4* __restrict__ src, std::uint64_t words, std::uint32_t* sink) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  std::uint32_t fold = 0;
  for (; i + 3 * stride < words; i += 4 * stride) {
    const uint4 a = src[i], b = src[i + stride], c = src[i + 2 * stride], d = src[i + 3 * stride];
    fold ^= a.x ^ a.y ^ a.z ^ a.w ^ b.x ^ b.y ^ b.z ^ b.w ^ c.x ^ c.y ^ c.z ^ c.w ^ d.x ^ d.y ^ d.z ^ d.w;
  }
  for (; i < words; i += stride) {
    const uint4 a = src[i];
    fold ^= a.x ^ a.y ^ a.z ^ a.w;
  }
  if (fold == 0x9E3779B9u) *sink = fold;  // data-dependent: the loads cannot be dropped
}

}  // namespace

void launch_read_only(CUdeviceptr src, std::uint64_t bytes, CUdeviceptr sink, unsigned blocks, unsigned threads,
                      CUstream stream) {
  read_only<<<blocks, threads, 0, reinterpret_cast<cudaStream_t>(stream)>>>(
      reinterpret_cast<const uint4*>(src), bytes / 16, reinterpret_cast<std::uint32_t*>(sink));
  if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess)
    throw device::CudaError(CUDA_ERROR_LAUNCH_FAILED, std::string("read_only<<<") + std::to_string(blocks) + ", " +
                                                          std::to_string(threads) + ">>> over " + std::to_string(bytes) +
                                                          " bytes: " + cudaGetErrorName(e));
}

}  // namespace gridfuzz::bench
