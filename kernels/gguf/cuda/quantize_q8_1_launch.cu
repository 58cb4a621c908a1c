// The q8_1 activation quantizer (docs/KERNELS.md, "q8_1 activation quantization"): one thread per
// padded column, a warp per 32-value block, block 256, grid (padded/256, rows of this launch). amax
// and the sum are warp shuffles; the sum's butterfly order is the one quantize_block_q8_1 (CPU)
// uses, so both give the same bits.
#include "quantize_q8_1_launch.hpp"

#include <cuda_fp16.h>

#include <cstddef>
#include <vector>

#include "gridfuzz/device/function.hpp"
#include "gridfuzz/gguf/formats.hpp"

namespace gridfuzz::gguf {
namespace {

// Quantizes the value this lane holds; lane 0 of the warp writes the block's d and s, as one
// 32-bit store (d at byte 0, s at byte 2 of the 4-byte aligned block), converted by the hardware's
// round-to-nearest-even (the bits float_to_half_bits gives on the CPU, without its branches).
__device__ __forceinline__ void quantize_lane(float xi, block_q8_1* block, unsigned lane) {
  float amax = fabsf(xi), sum = xi;
  for (int mask = 16; mask >= 1; mask >>= 1) {
    amax = fmaxf(amax, __shfl_xor_sync(0xffffffffu, amax, mask, 32));
    sum += __shfl_xor_sync(0xffffffffu, sum, mask, 32);
  }
  const float d = amax / 127.0f;
  block->qs[lane] = amax == 0.0f ? static_cast<std::int8_t>(0) : static_cast<std::int8_t>(roundf(xi / d));
  if (lane == 0) {
    const std::uint32_t d_bits = __half_as_ushort(__float2half_rn(d));
    const std::uint32_t s_bits = __half_as_ushort(__float2half_rn(sum));
    *reinterpret_cast<std::uint32_t*>(&block->d) = d_bits | (s_bits << 16);
  }
}
static_assert(offsetof(block_q8_1, d) == 0 && offsetof(block_q8_1, s) == 2 && sizeof(block_q8_1) % 4 == 0);

// Upstream's index types: int column, row and flat indices (host pre-offsets the pointers).
__global__ void quantize_q8_1_int32(const float* x, int* q8, int kx, int kx_padded) {
  const int ix = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int iy = static_cast<int>(blockIdx.y);
  const int i_padded = static_cast<int>(static_cast<unsigned>(iy) * static_cast<unsigned>(kx_padded) + static_cast<unsigned>(ix));
  const float xi = ix < kx ? x[static_cast<int>(static_cast<unsigned>(iy) * static_cast<unsigned>(kx) + static_cast<unsigned>(ix))] : 0.0f;
  quantize_lane(xi, reinterpret_cast<block_q8_1*>(q8) + i_padded / 32, static_cast<unsigned>(i_padded % 32));
}

// Ours below 2^32 (quantize_fits_uint32): the 64-bit kernel's indices in unsigned 32-bit, which
// the host proved cannot wrap; cheaper address arithmetic for the decode-size calls.
__global__ void quantize_q8_1_uint32(const float* x, int* q8, std::uint32_t kx, std::uint32_t kx_padded,
                                     std::uint32_t row_offset) {
  const std::uint32_t ix = blockIdx.x * blockDim.x + threadIdx.x;
  const std::uint32_t iy = row_offset + blockIdx.y;
  const std::uint32_t i_padded = iy * kx_padded + ix;
  const float xi = ix < kx ? x[iy * kx + ix] : 0.0f;
  quantize_lane(xi, reinterpret_cast<block_q8_1*>(q8) + i_padded / 32, i_padded % 32);
}

__global__ void quantize_q8_1_int64(const float* x, int* q8, std::uint64_t kx, std::uint64_t kx_padded,
                                    std::uint64_t row_offset) {
  const std::uint64_t ix = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::uint64_t iy = row_offset + blockIdx.y;
  const std::uint64_t i_padded = iy * kx_padded + ix;
  const float xi = ix < kx ? x[iy * kx + ix] : 0.0f;
  quantize_lane(xi, reinterpret_cast<block_q8_1*>(q8) + i_padded / 32, static_cast<unsigned>(i_padded % 32));
}

}  // namespace

void launch_quantize_q8_1(QuantizeGeometry g, const float* x, int* q8, std::uint64_t rows, std::uint64_t cols,
                          const DeviceLimits& limits, device::Launcher& launcher, CUstream stream, bool checked) {
  static const device::Function narrow =
      device::Function::from_symbol(reinterpret_cast<const void*>(&quantize_q8_1_int32), "quantize_q8_1_int32");
  static const device::Function wide =
      device::Function::from_symbol(reinterpret_cast<const void*>(&quantize_q8_1_int64), "quantize_q8_1_int64");
  static const device::Function wide_below_2_32 =
      device::Function::from_symbol(reinterpret_cast<const void*>(&quantize_q8_1_uint32), "quantize_q8_1_uint32");
  const bool fits_uint32 = quantize_fits_uint32(rows, cols);
  std::uint64_t kx = cols, kx_padded = q8_1_padded_cols(cols);
  const std::uint64_t stride = q8_1_row_stride_int32(cols);
  for (const QuantizeLaunch& l : quantize_launches(g, rows, cols, limits)) {
    if (g == QuantizeGeometry::tiles_64 && fits_uint32) {
      auto kx32 = static_cast<std::uint32_t>(kx), padded32 = static_cast<std::uint32_t>(kx_padded);
      auto offset = static_cast<std::uint32_t>(l.row_offset);
      void* args[] = {&x, &q8, &kx32, &padded32, &offset};
      launcher.launch_checked(wide_below_2_32, l.spec, args, stream);
      continue;
    }
    if (g == QuantizeGeometry::tiles_64) {
      std::uint64_t offset = l.row_offset;
      void* args[] = {&x, &q8, &kx, &kx_padded, &offset};
      launcher.launch_checked(wide, l.spec, args, stream);
      continue;
    }
    // Upstream: x + off*kx and vy + off*(padded/32*9), both int products.
    const int in_offset = static_cast<int>(static_cast<std::uint32_t>(l.row_offset * kx));
    const int out_offset = static_cast<int>(static_cast<std::uint32_t>(l.row_offset * stride));
    const float* xs = x + in_offset;
    int* ys = q8 + out_offset;
    int kx32 = static_cast<int>(kx), padded32 = static_cast<int>(kx_padded);
    void* args[] = {&xs, &ys, &kx32, &padded32};
    if (checked) launcher.launch_checked(narrow, l.spec, args, stream);
    else launcher.launch(narrow, l.spec, args, stream);
  }
}

}  // namespace gridfuzz::gguf
