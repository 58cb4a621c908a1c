#pragma once
// vLLM's GGUF kernels (vllm-gguf-plugin, pinned in upstream/manifest.txt) as gridfuzz kernels:
// vllm.moe_vec, vllm.mmvq, vllm.moe_mmq, vllm.quantize_q8_1. Built only when the upstream sources are there (GRIDFUZZ_HAS_VLLM).
#include <memory>

#include "gridfuzz/kernel.hpp"
#include "gridfuzz/registry.hpp"

namespace gridfuzz::vllm {

std::shared_ptr<const Kernel> make_moe_vec_kernel();
std::shared_ptr<const Kernel> make_mmvq_kernel();
std::shared_ptr<const Kernel> make_moe_mmq_kernel();
std::shared_ptr<const Kernel> make_quantize_q8_1_kernel();

// Adds the kernels above to `registry`.
void register_kernels(Registry& registry);

}  // namespace gridfuzz::vllm
