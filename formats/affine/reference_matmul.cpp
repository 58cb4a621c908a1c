#include "gridfuzz/formats/affine/reference_matmul.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "gridfuzz/formats/affine/bit_packing.hpp"

namespace gridfuzz::formats::affine {

namespace {

void check_view(std::size_t data_size, std::size_t rows, std::size_t cols) {
  if (data_size != rows * cols) {
    throw std::invalid_argument("ActivationView: " + std::to_string(data_size) +
                                " values for shape [" + std::to_string(rows) + ", " +
                                std::to_string(cols) + "]");
  }
}

// x must have w's K, and m must be a row of x.
void check_activation_row(const QuantizedMatrix& w, const ActivationView& x, std::size_t m) {
  if (x.cols() != w.cols) {
    throw std::invalid_argument("reference: activations have K = " + std::to_string(x.cols()) +
                                ", weights K = " + std::to_string(w.cols));
  }
  if (m >= x.rows()) {
    throw std::out_of_range("reference: row m = " + std::to_string(m) + " >= " +
                            std::to_string(x.rows()));
  }
}

void check_column(const QuantizedMatrix& w, std::size_t n) {
  if (n >= w.rows) {
    throw std::out_of_range("reference: column n = " + std::to_string(n) + " >= " +
                            std::to_string(w.rows));
  }
}

std::vector<double> activation_row(const ActivationView& x, std::size_t m) {
  std::vector<double> row(x.cols());
  for (std::size_t k = 0; k < x.cols(); ++k) row[k] = x.at(m, k);
  return row;
}

// sum_k f(x[k] * w[n][k]) with w dequantized exactly in double from the stored scale/bias.
template <typename Term>
double dot_row(const QuantizedMatrix& w, std::size_t n, const double* x, Term term) {
  const std::uint32_t* words = w.row_words(n).data();
  const std::size_t group_size = static_cast<std::size_t>(w.params.group_size);
  double sum = 0.0;
  for (std::size_t g = 0; g < w.groups_per_row(); ++g) {
    const std::size_t slot = n * w.groups_per_row() + g;
    const double scale = from_16bit_pattern(w.scales[slot], w.scale_dtype);
    const double bias = from_16bit_pattern(w.biases[slot], w.scale_dtype);
    for (std::size_t k = g * group_size; k < (g + 1) * group_size; ++k) {
      const double q = unpack_element(words, k, w.params.bits);
      sum += term(x[k] * (scale * q + bias));
    }
  }
  return sum;
}

double identity(double v) { return v; }
double magnitude(double v) { return std::fabs(v); }

}  // namespace

ActivationView ActivationView::f32(std::span<const float> data, std::size_t rows,
                                   std::size_t cols) {
  check_view(data.size(), rows, cols);
  return ActivationView(data.data(), Dtype::float32, rows, cols);
}

ActivationView ActivationView::bits16(std::span<const std::uint16_t> data, Dtype dtype,
                                      std::size_t rows, std::size_t cols) {
  if (!is_16bit(dtype)) {
    throw std::invalid_argument("ActivationView::bits16: " + to_string(dtype) +
                                " is not a 16-bit dtype");
  }
  check_view(data.size(), rows, cols);
  return ActivationView(data.data(), dtype, rows, cols);
}

double ActivationView::at(std::size_t row, std::size_t col) const {
  if (row >= rows_ || col >= cols_) {
    throw std::out_of_range("ActivationView: element (" + std::to_string(row) + ", " +
                            std::to_string(col) + ") outside [" + std::to_string(rows_) + ", " +
                            std::to_string(cols_) + "]");
  }
  const std::size_t i = row * cols_ + col;
  if (dtype_ == Dtype::float32) return static_cast<const float*>(data_)[i];
  return from_16bit_pattern(static_cast<const std::uint16_t*>(data_)[i], dtype_);
}

double reference_dot(const QuantizedMatrix& w, std::size_t n, const float* x_row) {
  const auto x = ActivationView::f32(std::span<const float>(x_row, w.cols), 1, w.cols);
  return reference_dot(w, n, x, 0);
}

double reference_dot(const QuantizedMatrix& w, std::size_t n, const ActivationView& x,
                     std::size_t m) {
  check_activation_row(w, x, m);
  check_column(w, n);
  return dot_row(w, n, activation_row(x, m).data(), identity);
}

double reference_abs_dot(const QuantizedMatrix& w, std::size_t n, const ActivationView& x,
                         std::size_t m) {
  check_activation_row(w, x, m);
  check_column(w, n);
  return dot_row(w, n, activation_row(x, m).data(), magnitude);
}

void reference_rows(const QuantizedMatrix& w, const ActivationView& x,
                    std::span<const std::size_t> m_rows, std::span<double> out) {
  if (out.size() != m_rows.size() * w.rows) {
    throw std::invalid_argument("reference_rows: out has " + std::to_string(out.size()) +
                                " entries, needs " + std::to_string(m_rows.size() * w.rows));
  }
  for (std::size_t i = 0; i < m_rows.size(); ++i) {
    check_activation_row(w, x, m_rows[i]);
    const std::vector<double> row = activation_row(x, m_rows[i]);
    for (std::size_t n = 0; n < w.rows; ++n) {
      out[i * w.rows + n] = dot_row(w, n, row.data(), identity);
    }
  }
}

void reference_rows(const QuantizedMatrix& w, const ActivationView& x,
                    std::span<const std::size_t> m_rows, std::span<const std::size_t> n_cols,
                    std::span<double> out) {
  if (out.size() != m_rows.size() * n_cols.size()) {
    throw std::invalid_argument("reference_rows: out has " + std::to_string(out.size()) +
                                " entries, needs " +
                                std::to_string(m_rows.size() * n_cols.size()));
  }
  for (std::size_t n : n_cols) check_column(w, n);
  for (std::size_t i = 0; i < m_rows.size(); ++i) {
    check_activation_row(w, x, m_rows[i]);
    const std::vector<double> row = activation_row(x, m_rows[i]);
    for (std::size_t j = 0; j < n_cols.size(); ++j) {
      out[i * n_cols.size() + j] = dot_row(w, n_cols[j], row.data(), identity);
    }
  }
}

}  // namespace gridfuzz::formats::affine
