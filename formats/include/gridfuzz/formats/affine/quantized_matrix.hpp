#pragma once
// A weight matrix w [rows = N, cols = K] in MLX's affine layout: packed quants
// wq [N, K*bits/32] uint32 and per-group scales/biases [N, K/group_size]. An expert stack
// [E, N, K] is the same thing with E*N rows (row e*N + n).
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "gridfuzz/formats/affine/dtype.hpp"
#include "gridfuzz/formats/affine/params.hpp"

namespace gridfuzz::formats::affine {

struct QuantizedMatrix {
  AffineParams params;
  Dtype scale_dtype = Dtype::bfloat16;  // 16-bit type the scales/biases are stored in
  std::size_t rows = 0;                 // N (output columns of the matmul)
  std::size_t cols = 0;                 // K (the reduction dimension)

  std::vector<std::uint32_t> words;     // [rows, words_per_row()]
  // What the kernels read: 16-bit patterns of scale_dtype, [rows, groups_per_row()].
  std::vector<std::uint16_t> scales;
  std::vector<std::uint16_t> biases;
  // The same values before rounding to scale_dtype (as computed in float). Kept so tests and
  // reports can separate quantization error from storage rounding; dequantization never uses them.
  std::vector<float> scales_f32;
  std::vector<float> biases_f32;

  std::size_t words_per_row() const { return cols * static_cast<std::size_t>(params.bits) / 32; }
  std::size_t groups_per_row() const { return cols / static_cast<std::size_t>(params.group_size); }

  std::span<const std::uint32_t> row_words(std::size_t row) const;
  std::uint32_t quant(std::size_t row, std::size_t col) const;  // unpacked q in [0, 2^bits)
  // The stored (dtype-rounded) scale and bias of the group holding (row, col), as floats.
  float scale(std::size_t row, std::size_t col) const;
  float bias(std::size_t row, std::size_t col) const;
};

}  // namespace gridfuzz::formats::affine
