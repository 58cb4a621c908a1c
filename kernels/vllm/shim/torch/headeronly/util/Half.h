#pragma once
// gridfuzz stand-in (kernels/vllm/shim/README.md): c10::Half is CUDA's __half (same layout).
#include <cuda_fp16.h>

namespace c10 {
using Half = __half;
}  // namespace c10
