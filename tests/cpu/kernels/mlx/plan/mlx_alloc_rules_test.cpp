// MLX's CUDA allocator's sizes as plan/mlx_alloc_rules.hpp reproduces them (allocator.cpp:167-177
// at 846d176): 8 bytes, powers of two below a 16 KiB page, whole pages above.
#include <gtest/gtest.h>

#include "plan/mlx_alloc_rules.hpp"

namespace gridfuzz::mlx {
namespace {

TEST(MlxAllocRules, SmallPowersOfTwoThenWholePages) {
  EXPECT_EQ(mlx_alloc_size(0), 0u);
  EXPECT_EQ(mlx_alloc_size(1), 8u);
  EXPECT_EQ(mlx_alloc_size(8), 8u);
  EXPECT_EQ(mlx_alloc_size(9), 16u);
  EXPECT_EQ(mlx_alloc_size(511), 512u);
  EXPECT_EQ(mlx_alloc_size(512), 512u);
  EXPECT_EQ(mlx_alloc_size(513), 1024u);
  EXPECT_EQ(mlx_alloc_size(8193), 16384u);
  EXPECT_EQ(mlx_alloc_size(16383), 16384u);
  EXPECT_EQ(mlx_alloc_size(16384), 16384u);
  EXPECT_EQ(mlx_alloc_size(16385), 32768u);
  EXPECT_EQ(mlx_alloc_size(UINT64_MAX), std::nullopt);
}

}  // namespace
}  // namespace gridfuzz::mlx
