#pragma once
// llama.cpp's CUDA matmuls (llama-cpp-python sdist, pinned in upstream/manifest.txt) as gridfuzz
// kernels, called through upstream's own host entry points: llamacpp.mmvq
// (ggml_cuda_mul_mat_vec_q) and llamacpp.mmq (ggml_cuda_mul_mat_q), each for ggml's MUL_MAT and
// MUL_MAT_ID (the MoE path, with expert ids). Built only when the sources are there
// (GRIDFUZZ_HAS_LLAMACPP).
#include "gridfuzz/registry.hpp"

namespace gridfuzz::llamacpp {

void register_kernels(Registry& registry);

}  // namespace gridfuzz::llamacpp
