#include "gridfuzz/formats/affine/quantized_matrix.hpp"

#include <stdexcept>
#include <string>

#include "gridfuzz/formats/affine/bit_packing.hpp"

namespace gridfuzz::formats::affine {

namespace {

void check_element(const QuantizedMatrix& m, std::size_t row, std::size_t col) {
  if (row >= m.rows || col >= m.cols) {
    throw std::out_of_range("QuantizedMatrix: element (" + std::to_string(row) + ", " +
                            std::to_string(col) + ") outside [" + std::to_string(m.rows) + ", " +
                            std::to_string(m.cols) + "]");
  }
}

std::size_t group_slot(const QuantizedMatrix& m, std::size_t row, std::size_t col) {
  check_element(m, row, col);
  return row * m.groups_per_row() + col / static_cast<std::size_t>(m.params.group_size);
}

}  // namespace

std::span<const std::uint32_t> QuantizedMatrix::row_words(std::size_t row) const {
  if (row >= rows) {
    throw std::out_of_range("QuantizedMatrix: row " + std::to_string(row) + " >= " +
                            std::to_string(rows));
  }
  return std::span<const std::uint32_t>(words).subspan(row * words_per_row(), words_per_row());
}

std::uint32_t QuantizedMatrix::quant(std::size_t row, std::size_t col) const {
  check_element(*this, row, col);
  return unpack_element(row_words(row).data(), col, params.bits);
}

float QuantizedMatrix::scale(std::size_t row, std::size_t col) const {
  return from_16bit_pattern(scales[group_slot(*this, row, col)], scale_dtype);
}

float QuantizedMatrix::bias(std::size_t row, std::size_t col) const {
  return from_16bit_pattern(biases[group_slot(*this, row, col)], scale_dtype);
}

}  // namespace gridfuzz::formats::affine
