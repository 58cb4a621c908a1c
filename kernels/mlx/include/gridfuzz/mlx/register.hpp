#pragma once
// MLX's CUDA quantized matmul (commit 846d176, docs/upstream/mlx.md) as gridfuzz kernels:
// mlx.qmm (dense: the LM head) and mlx.gather_qmm (MoE), each with variants `upstream` (MLX's host
// code as it is) and `chunked` (the same kernels under the minimal host fix). Built only when the
// build found MLX's sources and the pinned CuTe/CUTLASS headers (GRIDFUZZ_HAS_MLX).
#include <memory>

#include "gridfuzz/kernel.hpp"
#include "gridfuzz/registry.hpp"

namespace gridfuzz::mlx {

std::shared_ptr<const Kernel> make_dense_qmm_kernel();
std::shared_ptr<const Kernel> make_gather_qmm_kernel();

// Adds both kernels to `registry`.
void register_kernels(Registry& registry);

}  // namespace gridfuzz::mlx
