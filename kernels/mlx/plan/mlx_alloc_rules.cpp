#include "mlx_alloc_rules.hpp"

namespace gridfuzz::mlx {

std::optional<std::uint64_t> mlx_alloc_size(std::uint64_t size) {
  if (size == 0) return 0;
  if (size <= kMlxSmallBlockSize) return kMlxSmallBlockSize;
  if (size < kMlxPageSize) {
    std::uint64_t p = 1;
    while (p < size) p <<= 1;  // next_power_of_2 (mlx/utils.h:165-170): size itself when a power of 2
    return p;
  }
  const std::uint64_t r = size % kMlxPageSize;
  if (r == 0) return size;
  if (size > UINT64_MAX - (kMlxPageSize - r)) return std::nullopt;
  return size + (kMlxPageSize - r);
}

}  // namespace gridfuzz::mlx
