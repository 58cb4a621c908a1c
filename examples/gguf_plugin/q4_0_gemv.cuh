#pragma once
// A user's new GGUF kernel as it might live in their own code base: a GEMV over q4_0 weights and
// q8_1 activations, y[t][r] = sum_c w[r][c] * x[t][c] for every token t and weight row r, in the
// block layouts of gridfuzz::formats (gridfuzz/formats/gguf/blocks.hpp), which the kernel reads
// with the library's own device-callable helpers.
//
// One warp per output row, four warps a block: grid.x covers the rows, grid.y the tokens up to
// 65535, and each warp walks the tokens with a stride of gridDim.y, so no grid extent limits the
// shape. Lane l takes the blocks l, l+32, ... of the row: an exact integer dot of the 32 quants of
// a block, times the two half scales in fp32; the 32 lane sums meet in a butterfly.
//
// Index is the type of every index into w, x and y. The kernel is instantiated twice:
//   - `int`: the LEGACY variant, with a bug planted on purpose for gridfuzz to find: once
//     tokens * rows passes 2^31 - 1, y's index t * rows + r wraps negative and the write lands
//     outside y (within the adapter's axes the only one of the three indices that can wrap);
//   - `std::int64_t`: the FIXED variant.
#include <cuda_runtime.h>

#include <cstdint>

#include "gridfuzz/formats/gguf/blocks.hpp"
#include "gridfuzz/formats/gguf/fp16.hpp"

constexpr int kGemvWarpsPerBlock = 4;
constexpr unsigned kGemvMaxGridY = 65535;  // the device limit of grid.y

template <class Index>
__global__ void q4_0_gemv_kernel(const gridfuzz::formats::gguf::block_q4_0* w,
                                 const gridfuzz::formats::gguf::block_q8_1* x, float* y, int rows, int cols,
                                 int tokens) {
  namespace gg = gridfuzz::formats::gguf;
  const int lane = static_cast<int>(threadIdx.x % 32);
  const Index row = static_cast<Index>(blockIdx.x) * kGemvWarpsPerBlock + static_cast<Index>(threadIdx.x / 32);
  if (row >= rows) return;  // the whole warp: one row per warp
  const int blocks = cols / 32;
  for (Index t = blockIdx.y; t < tokens; t += gridDim.y) {
    float sum = 0.0f;
    for (int b = lane; b < blocks; b += 32) {
      const gg::block_q4_0& wb = w[row * blocks + b];
      const gg::block_q8_1& xb = x[t * blocks + b];
      int dot = 0;  // |dot| <= 32 * 8 * 128: exact
      for (int j = 0; j < 16; ++j) {  // byte j: element j in the low nibble, j + 16 in the high one
        dot += ((wb.qs[j] & 15) - 8) * xb.qs[j] + ((wb.qs[j] >> 4) - 8) * xb.qs[j + 16];
      }
      sum += gg::half_bits_to_float(wb.d) * gg::half_bits_to_float(xb.d) * static_cast<float>(dot);
    }
    for (int mask = 16; mask > 0; mask /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, mask);
    if (lane == 0) y[t * rows + row] = sum;
  }
}

// The launch geometry, kept apart from the launch so tools can ask for it.
inline dim3 q4_0_gemv_grid(unsigned rows, unsigned tokens) {
  return dim3((rows + kGemvWarpsPerBlock - 1) / kGemvWarpsPerBlock, tokens < kGemvMaxGridY ? tokens : kGemvMaxGridY, 1);
}
