// q8_1 activation quantization, float arithmetic in the kernel's order (see quantize_q8_1.hpp).
// Built without -ffast-math and on x86-64 without FMA contraction, so each float operation here
// is one IEEE operation, as in the CUDA kernel (no multiply-add pairs exist to contract anyway).
#include "gridfuzz/formats/gguf/quantize_q8_1.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "gridfuzz/formats/gguf/fp16.hpp"

namespace gridfuzz::formats::gguf {
namespace {

// Sum of 32 lane values as a shuffle-xor butterfly leaves it in every lane: at each step lane i
// adds lane i^mask (float addition is commutative, so both lanes of a pair agree bit for bit).
float butterfly_sum(const float* lanes) {
  float v[32];
  std::copy(lanes, lanes + 32, v);
  for (int mask = 16; mask >= 1; mask /= 2) {
    float next[32];
    for (int i = 0; i < 32; ++i) next[i] = v[i] + v[i ^ mask];
    std::copy(next, next + 32, v);
  }
  return v[0];
}

// float -> int8 the way a CUDA float-to-int8 conversion does it: saturating, NaN -> 0. Only
// non-finite inputs ever reach the saturation (|x/d| <= 127 otherwise).
std::int8_t to_int8_saturating(float v) {
  if (std::isnan(v)) return 0;
  return static_cast<std::int8_t>(std::clamp(v, -128.0f, 127.0f));
}

}  // namespace

block_q8_1 quantize_block_q8_1(const float* x32) {
  float amax = 0.0f;
  for (int j = 0; j < 32; ++j) amax = std::fmax(amax, std::fabs(x32[j]));
  const float d = amax / 127.0f;
  block_q8_1 out{};
  for (int j = 0; j < 32; ++j) {
    out.qs[j] = amax == 0.0f ? std::int8_t{0} : to_int8_saturating(std::roundf(x32[j] / d));
  }
  out.d = float_to_half_bits(d);
  out.s = float_to_half_bits(butterfly_sum(x32));
  return out;
}

void quantize_row_q8_1(const float* x, std::size_t cols, block_q8_1* out) {
  const std::size_t blocks = q8_1_blocks_per_row(cols);
  for (std::size_t b = 0; b < blocks; ++b) {
    float lanes[32];
    for (std::size_t j = 0; j < 32; ++j) {
      const std::size_t c = b * 32 + j;
      lanes[j] = c < cols ? x[c] : 0.0f;  // padding columns quantize from 0
    }
    out[b] = quantize_block_q8_1(lanes);
  }
}

}  // namespace gridfuzz::formats::gguf
