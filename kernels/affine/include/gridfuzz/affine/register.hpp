#pragma once
// The affine (MLX-style) quantized matmul kernels of gridfuzz: affine.qmm (dense LM head) and
// affine.gather_qmm (MoE), each with `legacy` (upstream geometry, bugs included) and `fixed`.
#include <memory>

#include "gridfuzz/kernel.hpp"
#include "gridfuzz/registry.hpp"

namespace gridfuzz::affine {

std::shared_ptr<const Kernel> make_dense_qmm_kernel();
std::shared_ptr<const Kernel> make_gather_qmm_kernel();

// Adds both kernels to `registry`.
void register_kernels(Registry& registry);

}  // namespace gridfuzz::affine
