#include "random_fill.hpp"

#include <algorithm>

#include "gridfuzz/device/function.hpp"
#include "gridfuzz/device/launcher.hpp"
#include "gridfuzz/gguf/formats.hpp"

namespace gridfuzz::gguf {
namespace {

// splitmix64 of (seed, stream tag, index): independent streams per buffer.
__device__ __forceinline__ std::uint64_t mix(std::uint64_t seed, std::uint64_t tag, std::uint64_t i) {
  std::uint64_t z = seed + tag * 0xD1B54A32D192ED03ull + (i + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

__device__ __forceinline__ float unit(std::uint64_t h) { return static_cast<float>(h >> 40) * (1.0f / 16777216.0f); }

__global__ void activations_kernel(float* x, std::uint64_t n, std::uint64_t seed) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const std::uint64_t h = mix(seed, 1, i);
    const float magnitude = 0.25f + 0.75f * unit(h);
    x[i] = (h & 1u) ? -magnitude : magnitude;
  }
}

__global__ void random_bytes_kernel(std::uint8_t* w, std::uint64_t bytes, std::uint64_t seed) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  const std::uint64_t words = bytes / 4;
  auto* w32 = reinterpret_cast<std::uint32_t*>(w);  // the buffer start is 256-byte aligned
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < words; i += stride)
    w32[i] = static_cast<std::uint32_t>(mix(seed, 2, i) >> 16);
  if (blockIdx.x == 0 && threadIdx.x == 0)
    for (std::uint64_t b = words * 4; b < bytes; ++b) w[b] = static_cast<std::uint8_t>(mix(seed, 3, b) >> 24);
}

// A half field of every block: sign * 2^(lo + (hi - lo)*u). `spread`: iq1_m's half, whose four
// nibbles are bits 12-15 of the four 16-bit words at `offset` (blocks.hpp).
struct ScaleField {
  int offset = -1;  // byte offset in the block; -1: none
  float lo = 0, hi = 0;
  float sign = 1;
  bool spread = false;
};

__global__ void scales_kernel(std::uint8_t* w, std::uint64_t blocks, std::uint32_t block_bytes, ScaleField f0,
                              ScaleField f1, std::uint64_t seed) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t b = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; b < blocks; b += stride) {
    const ScaleField fields[2] = {f0, f1};
    for (int k = 0; k < 2; ++k) {
      if (fields[k].offset < 0) continue;
      const float e = fields[k].lo + (fields[k].hi - fields[k].lo) * unit(mix(seed, 4 + k, b));
      const std::uint16_t bits = float_to_half_bits(fields[k].sign * exp2f(e));
      auto* field = reinterpret_cast<std::uint16_t*>(w + b * block_bytes + fields[k].offset);
      if (!fields[k].spread) {
        *field = bits;
        continue;
      }
      for (int n = 0; n < 4; ++n)
        field[n] = static_cast<std::uint16_t>((field[n] & 0x0FFFu) | ((bits >> (4 * n)) & 15u) << 12);
    }
  }
}

__global__ void ids_kernel(int* ids, std::uint64_t n, std::uint64_t experts, std::uint64_t seed) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    // The last pair always goes to the highest expert: an expert offset that the model says
    // wraps is then formed on the GPU, and the CPU reference samples that pair (gemv_call_parts).
    ids[i] = static_cast<int>(i == n - 1 ? experts - 1 : mix(seed, 6, i) % experts);
}

// Realistic magnitudes: a dequantized weight of roughly 1e-3..0.1 for every type.
void scale_fields(QuantType t, ScaleField& f0, ScaleField& f1) {
  switch (t) {
    case QuantType::q4_0: f0 = {0, -10, -6, 1}; return;
    case QuantType::q4_1: f0 = {0, -10, -6, 1}; f1 = {2, -7, -3, -1}; return;
    case QuantType::q5_0: f0 = {0, -11, -7, 1}; return;
    case QuantType::q5_1: f0 = {0, -11, -7, 1}; f1 = {2, -7, -3, -1}; return;
    case QuantType::q8_0: f0 = {0, -13, -9, 1}; return;
    case QuantType::q8_1: f0 = {0, -13, -9, 1}; f1 = {2, -6, -2, 1}; return;
    case QuantType::q2_K: f0 = {80, -11, -8, 1}; f1 = {82, -11, -8, 1}; return;
    case QuantType::q3_K: f0 = {108, -12, -9, 1}; return;
    case QuantType::q4_K: f0 = {0, -14, -11, 1}; f1 = {2, -14, -11, 1}; return;
    case QuantType::q5_K: f0 = {0, -15, -12, 1}; f1 = {2, -14, -11, 1}; return;
    case QuantType::q6_K: f0 = {208, -16, -13, 1}; return;
    case QuantType::iq4_nl: f0 = {0, -13, -9, 1}; return;
    case QuantType::iq4_xs: f0 = {0, -16, -13, 1}; return;
    // Codebook types: largest value per unit of d is 43 * 3.875 (iq2), 62 * 7.75 (iq3), 1.125 * 15 (iq1).
    case QuantType::iq2_xxs:
    case QuantType::iq2_xs:
    case QuantType::iq2_s: f0 = {0, -14, -10, 1}; return;
    case QuantType::iq3_xxs:
    case QuantType::iq3_s: f0 = {0, -16, -12, 1}; return;
    case QuantType::iq1_s: f0 = {0, -11, -7, 1}; return;
    case QuantType::iq1_m: f0 = {48, -11, -7, 1, true}; return;
  }
}

LaunchSpec stride_spec(const char* name, std::uint64_t n) {
  LaunchSpec l;
  l.name = name;
  l.block = {256, 1, 1};
  l.grid = {std::clamp<std::uint64_t>((n + 255) / 256, 1, 4096), 1, 1};
  return l;
}

}  // namespace

void fill_activations(float* x, std::uint64_t n, std::uint64_t seed, CUstream stream) {
  static const device::Function fn = device::Function::from_symbol(reinterpret_cast<const void*>(&activations_kernel), "fill_activations");
  void* args[] = {&x, &n, &seed};
  device::Launcher launcher;
  launcher.launch_checked(fn, stride_spec("fill_activations", n), args, stream);
}

void fill_weight_blocks(std::uint8_t* w, std::uint64_t blocks, QuantType t, std::uint64_t seed, CUstream stream) {
  static const device::Function bytes_fn = device::Function::from_symbol(reinterpret_cast<const void*>(&random_bytes_kernel), "fill_weight_bytes");
  static const device::Function scales_fn = device::Function::from_symbol(reinterpret_cast<const void*>(&scales_kernel), "fill_weight_scales");
  std::uint32_t block_bytes = quant_traits(t).block_bytes;
  std::uint64_t bytes = blocks * block_bytes;
  device::Launcher launcher;
  void* byte_args[] = {&w, &bytes, &seed};
  launcher.launch_checked(bytes_fn, stride_spec("fill_weight_bytes", bytes / 4), byte_args, stream);
  ScaleField f0, f1;
  scale_fields(t, f0, f1);
  void* scale_args[] = {&w, &blocks, &block_bytes, &f0, &f1, &seed};
  launcher.launch_checked(scales_fn, stride_spec("fill_weight_scales", blocks), scale_args, stream);
}

void fill_expert_ids(int* ids, std::uint64_t n, std::uint64_t experts, std::uint64_t seed, CUstream stream) {
  static const device::Function fn = device::Function::from_symbol(reinterpret_cast<const void*>(&ids_kernel), "fill_expert_ids");
  void* args[] = {&ids, &n, &experts, &seed};
  device::Launcher launcher;
  launcher.launch_checked(fn, stride_spec("fill_expert_ids", n), args, stream);
}

}  // namespace gridfuzz::gguf
