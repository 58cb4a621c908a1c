// A CUDA program of ours for `gridfuzz watch` on a GPU, written as an application would be (the
// runtime's <<<>>>, errors looked at late): one kernel at each launch limit, each its own kernel so
// the report names it, one refused launch and one zero grid that the program does not check, and a
// later unrelated kernel whose error check is the one that reports the refusal (cudaGetLastError
// returns the earlier launch's error), so the program blames the wrong launch. gridfuzz watch must
// find every planted launch near its limit and name the refused ones.
// Exits 0 when every launch did what is planted (accepted or refused), 1 otherwise.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void near_grid_y(int* out) {
  if (blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0) out[0] = 1;
}
__global__ void near_grid_z(int* out) {
  if (blockIdx.z == 0 && threadIdx.x == 0) out[1] = 1;
}
__global__ void full_block(int* out) {
  if (blockIdx.x == 0 && threadIdx.x == 1023) out[2] = 1;
}
__global__ void near_smem(int* out) {
  extern __shared__ int smem[];
  smem[threadIdx.x] = static_cast<int>(threadIdx.x);
  __syncthreads();
  if (threadIdx.x == 0) out[3] = smem[31];
}
__global__ void refused_grid_y(int* out) {
  if (threadIdx.x == 0) out[4] = 1;
}
__global__ void zero_grid(int* out) {
  if (threadIdx.x == 0) out[5] = 1;
}
__global__ void unrelated_kernel(int* out) {
  if (threadIdx.x == 0) out[6] = 1;
}

namespace {

int failures = 0;

void expect(const char* what, cudaError_t got, bool refused) {
  const bool ok = refused ? got != cudaSuccess : got == cudaSuccess;
  std::printf("near_limits: %-16s %s (%s)\n", what, cudaGetErrorName(got), ok ? "as planted" : "NOT as planted");
  failures += ok ? 0 : 1;
}

}  // namespace

int main() {
  int* out = nullptr;
  if (cudaMalloc(&out, 64 * sizeof(int)) != cudaSuccess) {
    std::printf("near_limits: no CUDA device\n");
    return 3;
  }
  int optin = 0;
  cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);

  near_grid_y<<<dim3(1, 61440, 1), 32>>>(out);
  expect("near_grid_y", cudaGetLastError(), false);
  near_grid_z<<<dim3(1, 1, 65535), 32>>>(out);
  expect("near_grid_z", cudaGetLastError(), false);
  full_block<<<4, 1024>>>(out);
  expect("full_block", cudaGetLastError(), false);
  const int smem_bytes = optin - 1024;  // 1 KiB under the opt-in limit
  cudaFuncSetAttribute(near_smem, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes);
  near_smem<<<2, 128, smem_bytes>>>(out);
  expect("near_smem", cudaGetLastError(), false);

  // Refused, and not checked here: as host code that launches and moves on.
  refused_grid_y<<<dim3(1, 65536, 1), 32>>>(out);
  zero_grid<<<dim3(0, 1, 1), 32>>>(out);
  unrelated_kernel<<<1, 32>>>(out);
  const cudaError_t blamed = cudaGetLastError();
  std::printf("near_limits: the check after unrelated_kernel reports %s: the program would blame unrelated_kernel\n",
              cudaGetErrorName(blamed));
  expect("(late check)", blamed, true);
  expect("synchronize", cudaDeviceSynchronize(), false);
  cudaFree(out);
  std::printf("near_limits: %s\n", failures == 0 ? "every launch as planted" : "some launch not as planted");
  return failures == 0 ? 0 : 1;
}
