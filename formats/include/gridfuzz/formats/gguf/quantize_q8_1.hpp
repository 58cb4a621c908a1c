#pragma once
// q8_1 activation quantization on the CPU, as vLLM's quantize_q8_1 kernel does it
// (docs/KERNELS.md, "q8_1 activation quantization"), meant to be bit-identical to this project's
// CUDA quantize_q8_1:
//   per 32-value block: amax = max |x| (float), d = amax / 127 (float division),
//   q = roundf(x / d) (0 when amax == 0), s = sum of the ORIGINAL floats; d and s stored as half
//   (round to nearest even).
// Rounding of x / d: roundf, i.e. round half AWAY from zero (CUDA's roundf; not rint's ties to
// even). The sum s is formed in float in the order of a warp butterfly reduction (lane i adds
// lane i^16, then ^8, ^4, ^2, ^1), the order a shuffle-xor warp sum produces; a CUDA kernel that
// sums in another order differs from this in the last bits of s.
#include <cstddef>

#include "gridfuzz/formats/gguf/blocks.hpp"
#include "gridfuzz/formats/gguf/q8_1_layout.hpp"

namespace gridfuzz::formats::gguf {

// Quantizes one activation row of `cols` floats into q8_1_blocks_per_row(cols) blocks at `out`:
// columns cols..padded-1 are quantized from 0 (their blocks get d = 0, q = 0, or, in a block
// holding real columns too, q = 0 and no contribution to s).
void quantize_row_q8_1(const float* x, std::size_t cols, block_q8_1* out);

// One 32-value block (the unit the kernel's warp handles).
block_q8_1 quantize_block_q8_1(const float* x32);

}  // namespace gridfuzz::formats::gguf
