#pragma once
// CPU quantizers: floats -> valid GGUF blocks with realistic scales. Deterministic; not bit-equal
// to ggml's quantizers (those search for scales), but the same shape of choice: per block (legacy)
// or per sub-block (K-quants, iq4_xs) an amax or min/max scale, the super-block scales chosen so
// the largest sub-block scale uses the full 4/6/8-bit range, sub-scales packed per scale_packing.hpp.
//
// Stored half scales are rounded AWAY from zero (fp16.hpp), so that after rounding no input lands
// past the end of its quant grid; every quant is then the nearest grid point to its input.
#include <cstddef>

#include "gridfuzz/formats/gguf/quant_type.hpp"

namespace gridfuzz::formats::gguf {

// Quantizes n floats (n a multiple of qk) into n/qk blocks of type t at `blocks`.
// Weight types require finite inputs with |x| <= 65504 (the half range: scales must fit in half)
// and throw std::invalid_argument otherwise. q8_1 is the activation format: it quantizes exactly
// like quantize_row_q8_1 (quantize_q8_1.hpp) without the row padding, and accepts any float.
void quantize_row(QuantType t, const float* x, void* blocks, std::size_t n);

// The guarantee of quantize_row: for a block (a 256-value super-block for K-quants and iq4_xs)
// whose inputs have amax A = max |x|, every dequantized value is within
//     quantization_error_coefficient(t) * (1 + 2^-9) * A + kQuantizationErrorFloor
// of its input. The coefficients and their derivations are in quantize.cpp; the (1 + 2^-9)
// factor absorbs the half rounding of the scales, the floor absorbs half-subnormal scales.
double quantization_error_coefficient(QuantType t);
double quantization_error_bound(QuantType t, double block_amax);
inline constexpr double kQuantizationErrorFloor = 1.0 / 65536.0;  // 2^-16

}  // namespace gridfuzz::formats::gguf
