#pragma once
// A user's kernel as it lives in their own code base: RMSNorm over rows, one block per row, with
// the rows on grid.y (as llama.cpp's rms_norm_f32 did, issue #27901). It works until a batch has
// more than 65535 rows; then the launch is refused, and the launcher below never looks.
#include <cuda_runtime.h>

constexpr int kRmsNormThreads = 256;

__global__ void rms_norm_kernel(const float* x, float* y, int cols, float eps) {
  const long long row = blockIdx.y;  // the geometry bug: rows on grid.y
  const float* xr = x + row * cols;
  float* yr = y + row * cols;
  __shared__ float partial[kRmsNormThreads];
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) s += xr[c] * xr[c];
  partial[threadIdx.x] = s;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
    __syncthreads();
  }
  const float scale = rsqrtf(partial[0] / cols + eps);
  for (int c = threadIdx.x; c < cols; c += blockDim.x) yr[c] = xr[c] * scale;
}

// The launch geometry, kept apart from the launch so tools can ask for it.
inline dim3 rms_norm_grid(int rows) { return dim3(1, rows, 1); }

// The user's launcher: no error check, as in many code bases.
inline void rms_norm(const float* x, float* y, int rows, int cols, cudaStream_t stream) {
  rms_norm_kernel<<<rms_norm_grid(rows), kRmsNormThreads, 0, stream>>>(x, y, cols, 1e-6f);
}
