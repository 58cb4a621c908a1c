#pragma once
// The GGUF MoE GEMV family as gridfuzz kernels: gguf.quantize_q8_1, gguf.moe_vec, gguf.mmvq.
#include <memory>

#include "gridfuzz/kernel.hpp"
#include "gridfuzz/registry.hpp"

namespace gridfuzz::gguf {

std::shared_ptr<const Kernel> make_quantize_q8_1_kernel();
std::shared_ptr<const Kernel> make_moe_vec_kernel();
std::shared_ptr<const Kernel> make_mmvq_kernel();

// Adds the three kernels above to `registry`.
void register_kernels(Registry& registry);

}  // namespace gridfuzz::gguf
