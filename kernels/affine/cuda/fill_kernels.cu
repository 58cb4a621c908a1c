// Random inputs and dequantization on the GPU: the LM head's output is gigabytes and its inputs
// hundreds of megabytes, far too much to generate on the host and upload per case.
#include <algorithm>

#include "element_types.cuh"
#include "gridfuzz/affine/formats.hpp"
#include "gridfuzz/affine/device_ops.hpp"
#include "gridfuzz/checked_math.hpp"
#include "gridfuzz/device/function.hpp"

namespace gridfuzz::affine {
namespace {

constexpr unsigned kFillThreads = 256;

// splitmix64 finaliser of (index, seed): independent streams per seed, cheap on the GPU.
__device__ __forceinline__ std::uint64_t mix(std::uint64_t i, std::uint64_t seed) {
  std::uint64_t h = (i + 1) * 0x9E3779B97F4A7C15ull ^ (seed * 0xD1B54A32D192ED03ull);
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 29;
  h *= 0x94D049BB133111EBull;
  h ^= h >> 32;
  return h;
}

template <class T>
__global__ void fill_16bit_kernel(std::uint16_t* out, std::uint64_t n, float lo, float hi, std::uint64_t seed) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const std::uint64_t h = mix(i, seed);
    const float u = static_cast<float>(h >> 40) * (1.0f / 16777216.0f);  // [0, 1)
    const float v = (lo + (hi - lo) * u) * ((h & 1) ? -1.f : 1.f);
    const T t = Element<T>::from_float(v);
    out[i] = *reinterpret_cast<const std::uint16_t*>(&t);
  }
}

__global__ void fill_words_kernel(std::uint32_t* out, std::uint64_t n, std::uint64_t seed) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = static_cast<std::uint32_t>(mix(i, seed) >> 17);
}

__global__ void fill_pairs_kernel(std::uint32_t* lhs, std::uint32_t* rhs, std::uint64_t pairs, std::uint64_t top_k,
                                  std::uint64_t experts, std::uint64_t seed) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t p = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; p < pairs; p += stride) {
    lhs[p] = static_cast<std::uint32_t>(p / top_k);
    // The last pair always uses the highest expert, so the largest weight offset the model
    // predicts is formed on the GPU and sampled by the CPU reference (affine_matmul_kernel.cpp).
    rhs[p] = static_cast<std::uint32_t>(p == pairs - 1 ? experts - 1 : mix(p, seed ^ 0x5EEDull) % experts);
  }
}

template <class T>
__global__ void dequantize_kernel(const std::uint32_t* w, const std::uint16_t* scales, const std::uint16_t* biases,
                                  std::uint16_t* out, std::uint64_t rows, std::uint64_t k, int bits, int group_size) {
  const std::uint64_t n = rows * k;
  const std::uint64_t words_per_row = k * static_cast<std::uint64_t>(bits) / 32;
  const std::uint64_t groups_per_row = k / static_cast<std::uint64_t>(group_size);
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const std::uint64_t r = i / k, c = i % k;
    const float q = static_cast<float>(unpack_element(w + r * words_per_row, c, bits));
    const std::uint64_t g = r * groups_per_row + c / group_size;
    const float s = Element<T>::to_float(load_element<T>(scales + g));
    const float b = Element<T>::to_float(load_element<T>(biases + g));
    const T v = Element<T>::from_float(fmaf(q, s, b));
    out[i] = *reinterpret_cast<const std::uint16_t*>(&v);
  }
}

LaunchSpec grid_stride_spec(std::uint64_t n, const char* name) {
  LaunchSpec l;
  l.name = name;
  l.block = {kFillThreads, 1, 1};
  l.grid = {std::clamp<std::uint64_t>(ceil_div(n, kFillThreads), 1, 8192), 1, 1};
  return l;
}

// One Function per kernel (keyed on the kernel's address, not its type: the f16 and bf16 fills
// share a signature).
template <auto Kernel>
const device::Function& function_of(const char* name) {
  static const device::Function f = device::Function::from_symbol(reinterpret_cast<const void*>(Kernel), name);
  return f;
}

void require_16bit(Dtype dtype) {
  if (!is_16bit(dtype)) throw std::invalid_argument("affine: activations, scales and biases must be f16 or bf16");
}

}  // namespace

void fill_random_16bit(CUdeviceptr out, std::uint64_t count, Dtype dtype, float min_magnitude, float max_magnitude,
                       std::uint64_t seed, CUstream stream) {
  require_16bit(dtype);
  if (count == 0) return;
  auto* p = reinterpret_cast<std::uint16_t*>(static_cast<std::uintptr_t>(out));
  void* args[] = {&p, &count, &min_magnitude, &max_magnitude, &seed};
  device::Launcher launcher;
  const auto& fn = dtype == Dtype::float16 ? function_of<&fill_16bit_kernel<__half>>("affine_fill_f16")
                                           : function_of<&fill_16bit_kernel<__nv_bfloat16>>("affine_fill_bf16");
  launcher.launch_checked(fn, grid_stride_spec(count, "affine_fill_16bit"), args, stream);
}

void fill_random_words(CUdeviceptr out, std::uint64_t count, std::uint64_t seed, CUstream stream) {
  if (count == 0) return;
  auto* p = reinterpret_cast<std::uint32_t*>(static_cast<std::uintptr_t>(out));
  void* args[] = {&p, &count, &seed};
  device::Launcher launcher;
  launcher.launch_checked(function_of<&fill_words_kernel>("affine_fill_words"), grid_stride_spec(count, "affine_fill_words"),
                          args, stream);
}

void fill_pair_indices(CUdeviceptr lhs, CUdeviceptr rhs, std::uint64_t pairs, std::uint64_t top_k,
                       std::uint64_t experts, std::uint64_t seed, CUstream stream) {
  if (pairs == 0) return;
  auto* l = reinterpret_cast<std::uint32_t*>(static_cast<std::uintptr_t>(lhs));
  auto* r = reinterpret_cast<std::uint32_t*>(static_cast<std::uintptr_t>(rhs));
  void* args[] = {&l, &r, &pairs, &top_k, &experts, &seed};
  device::Launcher launcher;
  launcher.launch_checked(function_of<&fill_pairs_kernel>("affine_fill_pairs"), grid_stride_spec(pairs, "affine_fill_pairs"),
                          args, stream);
}

void dequantize_weights(CUdeviceptr w, CUdeviceptr scales, CUdeviceptr biases, CUdeviceptr out, std::uint64_t rows,
                        std::uint64_t k, int bits, int group_size, Dtype dtype, CUstream stream) {
  require_16bit(dtype);
  auto* wp = reinterpret_cast<const std::uint32_t*>(static_cast<std::uintptr_t>(w));
  auto* sp = reinterpret_cast<const std::uint16_t*>(static_cast<std::uintptr_t>(scales));
  auto* bp = reinterpret_cast<const std::uint16_t*>(static_cast<std::uintptr_t>(biases));
  auto* op = reinterpret_cast<std::uint16_t*>(static_cast<std::uintptr_t>(out));
  void* args[] = {&wp, &sp, &bp, &op, &rows, &k, &bits, &group_size};
  device::Launcher launcher;
  const auto& fn = dtype == Dtype::float16 ? function_of<&dequantize_kernel<__half>>("affine_dequantize_f16")
                                           : function_of<&dequantize_kernel<__nv_bfloat16>>("affine_dequantize_bf16");
  launcher.launch_checked(fn, grid_stride_spec(rows * k, "affine_dequantize"), args, stream);
}

}  // namespace gridfuzz::affine
