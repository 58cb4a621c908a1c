#pragma once
// Stand-in for MLX's mlx/stream.h (named in qmm.h's declarations only).
namespace mlx::core {
struct Stream {
  int index = 0;
};
}  // namespace mlx::core
