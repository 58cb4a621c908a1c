#pragma once
// Stand-in for MLX's mlx/utils.h: the helpers MLX's CUDA quantized host code uses.
#include <cstdint>

namespace mlx::core {

// Smallest power of two >= n (1 for n <= 1), as MLX's next_power_of_2.
inline int next_power_of_2(int n) {
  int p = 1;
  while (p < n) p <<= 1;
  return p;
}

}  // namespace mlx::core
