#include "activation_fill.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "gridfuzz/device/function.hpp"
#include "gridfuzz/device/launcher.hpp"
#include "random_fill.hpp"

namespace gridfuzz::vllm {
namespace {

// splitmix64 of (seed, index), the same finalizer as the GGUF family's fill.
__device__ __forceinline__ std::uint64_t mix(std::uint64_t seed, std::uint64_t i) {
  std::uint64_t z = seed + 0xD1B54A32D192ED03ull + (i + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

template <class T>
__device__ __forceinline__ T round_to(float v);
template <>
__device__ __forceinline__ __half round_to<__half>(float v) { return __float2half_rn(v); }
template <>
__device__ __forceinline__ __nv_bfloat16 round_to<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }

template <class T>
__global__ void activations16_kernel(T* x, std::uint64_t n, std::uint64_t seed) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const std::uint64_t h = mix(seed, i);
    const float magnitude = 0.25f + 0.75f * (static_cast<float>(h >> 40) * (1.0f / 16777216.0f));
    x[i] = round_to<T>((h & 1u) ? -magnitude : magnitude);
  }
}

LaunchSpec fill_spec(std::uint64_t n) {
  LaunchSpec spec;
  spec.name = "vllm fill_activations16";
  spec.block = {256, 1, 1};
  const std::uint64_t blocks = (n + 255) / 256;
  spec.grid = {blocks == 0 ? 1 : (blocks < 65535 ? blocks : 65535), 1, 1};
  return spec;
}

}  // namespace

void fill_activations(ScalarKind k, CUdeviceptr x, std::uint64_t n, std::uint64_t seed, CUstream stream) {
  if (k == ScalarKind::f32) {
    gguf::fill_activations(reinterpret_cast<float*>(static_cast<std::uintptr_t>(x)), n, seed, stream);
    return;
  }
  static const device::Function f16 = device::Function::from_symbol(
      reinterpret_cast<const void*>(&activations16_kernel<__half>), "vllm fill_activations<half>");
  static const device::Function bf16 = device::Function::from_symbol(
      reinterpret_cast<const void*>(&activations16_kernel<__nv_bfloat16>), "vllm fill_activations<bfloat16>");
  void* ptr = reinterpret_cast<void*>(static_cast<std::uintptr_t>(x));
  void* args[] = {&ptr, &n, &seed};
  device::Launcher launcher;
  launcher.launch_checked(k == ScalarKind::f16 ? f16 : bf16, fill_spec(n), args, stream);
}

}  // namespace gridfuzz::vllm
