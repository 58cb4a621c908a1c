#pragma once
// How MLX's CUDA allocator sizes an array's buffer (CudaAllocator::malloc_async, MLX commit 846d176,
// mlx/backend/cuda/allocator.cpp; the pinned checkout under GRIDFUZZ_MLX_DIR holds the kernels only,
// so this file was read in ml-explore/mlx at that same commit), as pure host arithmetic. Nothing
// here is MLX code. docs/upstream/mlx.md, "Allocation".
//
// Not wired into the mlx.* adapters: see that section (no MLX fault finding depends on slack; MLX's
// outputs would need a harness change to be padded and still checked).
#include <cstdint>
#include <optional>

namespace gridfuzz::mlx {

inline constexpr std::uint64_t kMlxPageSize = 16384;       // allocator.cpp:22
inline constexpr std::uint64_t kMlxSmallBlockSize = 8;     // allocator.cpp:25

// The size malloc_async allocates for a request (allocator.cpp:167-177): 0 stays 0 (no buffer,
// :167-169); up to 8 bytes, 8 (the scalar pool, :171-172); below a page, the next power of two
// (:173-174, mlx/utils.h:165-170); else a multiple of 16384 (:175-176). That size is what
// cudaMallocAsync / cudaMalloc (unified memory up to 8 bytes) is asked for (:201-209), or a cached
// buffer at least that large serves it (:185; buffer_cache.h:30-36: smaller than
// min(2 x size, size + 2 pages)).
std::optional<std::uint64_t> mlx_alloc_size(std::uint64_t size);

}  // namespace gridfuzz::mlx
