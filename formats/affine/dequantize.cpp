#include "gridfuzz/formats/affine/dequantize.hpp"

#include <stdexcept>
#include <string>

#include "gridfuzz/formats/affine/bit_packing.hpp"
#include "gridfuzz/formats/affine/dtype.hpp"

namespace gridfuzz::formats::affine {

double dequantize_element(const QuantizedMatrix& m, std::size_t row, std::size_t col) {
  return static_cast<double>(m.scale(row, col)) * static_cast<double>(m.quant(row, col)) +
         static_cast<double>(m.bias(row, col));
}

void dequantize_row(const QuantizedMatrix& m, std::size_t row, std::span<float> out) {
  if (out.size() != m.cols) {
    throw std::invalid_argument("dequantize_row: out has " + std::to_string(out.size()) +
                                " entries, K = " + std::to_string(m.cols));
  }
  const std::span<const std::uint32_t> words = m.row_words(row);  // checks row
  const std::size_t group_size = static_cast<std::size_t>(m.params.group_size);
  for (std::size_t g = 0; g < m.groups_per_row(); ++g) {
    const std::size_t slot = row * m.groups_per_row() + g;
    const float scale = from_16bit_pattern(m.scales[slot], m.scale_dtype);
    const float bias = from_16bit_pattern(m.biases[slot], m.scale_dtype);
    for (std::size_t i = g * group_size; i < (g + 1) * group_size; ++i) {
      const float q = static_cast<float>(unpack_element(words.data(), i, m.params.bits));
      out[i] = scale * q + bias;
    }
  }
}

std::vector<float> dequantize(const QuantizedMatrix& m) {
  std::vector<float> out(m.rows * m.cols);
  for (std::size_t r = 0; r < m.rows; ++r) {
    dequantize_row(m, r, std::span<float>(out).subspan(r * m.cols, m.cols));
  }
  return out;
}

}  // namespace gridfuzz::formats::affine
