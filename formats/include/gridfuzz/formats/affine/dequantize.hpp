#pragma once
// Dequantization from the STORED (dtype-rounded) scales and biases: w = scale*q + bias, the
// same values the GPU kernels use.
#include <cstddef>
#include <span>
#include <vector>

#include "gridfuzz/formats/affine/quantized_matrix.hpp"

namespace gridfuzz::formats::affine {

// One element in double. scale*q is exact (a 16-bit scale times q < 2^8 needs at most 19
// significant bits); the sum is exact too for f16 scales and rounds at most once for bf16.
double dequantize_element(const QuantizedMatrix& m, std::size_t row, std::size_t col);

// Row `row` as floats; out must have m.cols entries. scale*q is exact in float for the same
// reason, so each value is the once-rounded float of scale*q + bias: what an fma computes.
// Throws std::out_of_range (row) / std::invalid_argument (out size).
void dequantize_row(const QuantizedMatrix& m, std::size_t row, std::span<float> out);

// The whole matrix [rows, cols] as floats (same arithmetic as dequantize_row).
std::vector<float> dequantize(const QuantizedMatrix& m);

}  // namespace gridfuzz::formats::affine
