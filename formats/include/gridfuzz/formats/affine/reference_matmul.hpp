#pragma once
// CPU reference for out[m][n] = sum_k x[m][k] * dequant(w)[n][k], in float64 for chosen rows m
// (and optionally chosen columns n): the oracle samples rows so that a big launch and its
// split-batch reference cannot both be wrong the same way.
#include <cstddef>
#include <cstdint>
#include <span>

#include "gridfuzz/formats/affine/dtype.hpp"
#include "gridfuzz/formats/affine/quantized_matrix.hpp"

namespace gridfuzz::formats::affine {

// A read-only view of activations x [rows, cols] in f32, or as f16/bf16 bit patterns. It does
// not own the data: the buffer must outlive the view.
class ActivationView {
 public:
  static ActivationView f32(std::span<const float> data, std::size_t rows, std::size_t cols);
  // dtype must be float16 or bfloat16.
  static ActivationView bits16(std::span<const std::uint16_t> data, Dtype dtype, std::size_t rows,
                               std::size_t cols);

  std::size_t rows() const { return rows_; }
  std::size_t cols() const { return cols_; }
  Dtype dtype() const { return dtype_; }
  double at(std::size_t row, std::size_t col) const;  // exact value of the stored element

 private:
  ActivationView(const void* data, Dtype dtype, std::size_t rows, std::size_t cols)
      : data_(data), dtype_(dtype), rows_(rows), cols_(cols) {}
  const void* data_;
  Dtype dtype_;
  std::size_t rows_;
  std::size_t cols_;
};

// sum_k x_row[k] * dequant(w)[n][k] in float64; x_row has w.cols entries.
double reference_dot(const QuantizedMatrix& w, std::size_t n, const float* x_row);
double reference_dot(const QuantizedMatrix& w, std::size_t n, const ActivationView& x,
                     std::size_t m);

// sum_k |x[m][k] * dequant(w)[n][k]|: the scale for a comparison tolerance (a float or bf16
// accumulation error grows with this sum, not with the possibly cancelled result).
double reference_abs_dot(const QuantizedMatrix& w, std::size_t n, const ActivationView& x,
                         std::size_t m);

// out[i * w.rows + n] = reference_dot(w, n, x, m_rows[i]) for every n.
void reference_rows(const QuantizedMatrix& w, const ActivationView& x,
                    std::span<const std::size_t> m_rows, std::span<double> out);

// out[i * n_cols.size() + j] = reference_dot(w, n_cols[j], x, m_rows[i]): for wide outputs
// (an LM head of 128k columns) where a full row costs too much.
void reference_rows(const QuantizedMatrix& w, const ActivationView& x,
                    std::span<const std::size_t> m_rows, std::span<const std::size_t> n_cols,
                    std::span<double> out);

}  // namespace gridfuzz::formats::affine
