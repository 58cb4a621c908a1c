#pragma once
// gridfuzz stand-in (kernels/vllm/shim/README.md): c10::BFloat16 is CUDA's __nv_bfloat16 (same
// layout: the upper 16 bits of an IEEE float).
#include <cuda_bf16.h>

namespace c10 {
using BFloat16 = __nv_bfloat16;
}  // namespace c10
