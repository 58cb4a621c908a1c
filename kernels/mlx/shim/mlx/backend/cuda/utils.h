#pragma once
// Stand-in for MLX's mlx/backend/cuda/utils.h (dtype_to_cuda_type, named by cutlass_utils.cuh).
#include "mlx/dtype.h"

namespace mlx::core {
const char* dtype_to_cuda_type(const Dtype& dtype);  // kernels/mlx/upstream/standins.cpp
}  // namespace mlx::core
