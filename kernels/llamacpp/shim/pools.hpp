#pragma once
// The memory pools the shim can put behind a ggml backend context (shim/ggml_shim.cu): exactly
// the bytes asked for, or ggml-cuda's own pools by their rules (plan/ggml_alloc_rules.hpp).
#include <cuda_runtime_api.h>

#include <memory>

#include "common.cuh"
#include "upstream_call.hpp"

namespace gridfuzz::llamacpp {

// A fresh pool of `kind` on `device`; `stream` is the call's (the VMM pool waits for it before it
// unmaps its memory).
std::unique_ptr<ggml_cuda_pool> make_pool(Pool kind, int device, cudaStream_t stream);

}  // namespace gridfuzz::llamacpp
