#pragma once
// Stand-in for MLX's CUDA allocator header: gpu_ptr, the device address of an array.
#include "mlx/array.h"

namespace mlx::core {

template <class T>
T* gpu_ptr(const array& a) {
  return static_cast<T*>(a.data_ptr());
}

}  // namespace mlx::core
