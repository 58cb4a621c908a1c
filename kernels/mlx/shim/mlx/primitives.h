#pragma once
// Stand-in for MLX's mlx/primitives.h: the quantization modes (same enumerators as MLX 0.32).
#include <string>

namespace mlx::core {

enum class QuantizationMode { Affine, Mxfp4, Mxfp8, Nvfp4 };
std::string quantization_mode_to_string(QuantizationMode mode);  // kernels/mlx/upstream/standins.cpp

}  // namespace mlx::core
