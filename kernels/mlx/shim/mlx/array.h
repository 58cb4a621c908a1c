#pragma once
// Stand-in for MLX's mlx::core::array: a row-contiguous array description (shape, dtype, strides,
// flags) and a device pointer, with the member functions MLX's CUDA quantized host code calls,
// under the same names and return types as MLX 0.32 (size_t size/ndim/itemsize/data_size, int
// shape(dim), int64 strides(dim)). No data is owned. kernels/mlx/shim/README.md says why.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "mlx/dtype.h"

namespace mlx::core {

using ShapeElem = std::int32_t;
using Shape = std::vector<ShapeElem>;
using Strides = std::vector<std::int64_t>;
template <class T>
using SmallVector = std::vector<T>;

class array {
 public:
  struct Flags {
    bool contiguous : 1;
    bool row_contiguous : 1;
    bool col_contiguous : 1;
  };

  // A row-contiguous array of `shape` at `data` (nullptr while only planning).
  array(Shape shape, Dtype dtype, void* data = nullptr) : shape_(std::move(shape)), dtype_(dtype), data_(data) {
    strides_.resize(shape_.size());
    std::int64_t stride = 1;
    for (std::size_t i = shape_.size(); i-- > 0;) {
      strides_[i] = stride;
      stride *= shape_[i];
    }
    flags_ = {true, true, shape_.size() <= 1};
  }

  std::size_t ndim() const { return shape_.size(); }
  const Shape& shape() const { return shape_; }
  int shape(int dim) const { return shape_.at(dim < 0 ? dim + static_cast<int>(ndim()) : dim); }
  const Strides& strides() const { return strides_; }
  std::int64_t strides(int dim) const { return strides_.at(dim < 0 ? dim + static_cast<int>(ndim()) : dim); }
  std::size_t size() const {
    std::size_t n = 1;
    for (ShapeElem s : shape_) n *= static_cast<std::size_t>(s);
    return n;
  }
  std::size_t data_size() const { return size(); }  // row-contiguous: every element is stored
  Dtype dtype() const { return dtype_; }
  std::size_t itemsize() const { return dtype_.size; }
  std::size_t nbytes() const { return size() * itemsize(); }
  Flags flags() const { return flags_; }
  void* data_ptr() const { return data_; }

 private:
  Shape shape_;
  Strides strides_;
  Dtype dtype_;
  Flags flags_{};
  void* data_ = nullptr;
};

}  // namespace mlx::core
