#pragma once
// CPU dequantization of GGUF rows, following docs/KERNELS.md, "GGUF dequantization" formula by
// formula.
//
// Every weight value of these formats is an exact product of a half scale and small integers
// (at most 25 significant bits), so the float64 overload returns the exact values, and the float
// overload returns those values rounded once to float, which equals what ggml's float code gives.
#include <cstddef>

#include "gridfuzz/formats/gguf/quant_type.hpp"

namespace gridfuzz::formats::gguf {

// n = number of values; it must be a multiple of quant_traits(t).qk (std::invalid_argument
// otherwise). `blocks` holds n / qk consecutive blocks of type t. q8_1 dequantizes as q * d.
void dequantize_row(QuantType t, const void* blocks, float* out, std::size_t n);
void dequantize_row(QuantType t, const void* blocks, double* out, std::size_t n);

// Throws std::invalid_argument unless n is a multiple of the type's block size.
void check_row_length(QuantType t, std::size_t n, const char* who);

}  // namespace gridfuzz::formats::gguf
