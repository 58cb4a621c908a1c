#pragma once
// GRIDFUZZ_GGUF_HD marks functions that both the host compiler and nvcc's device pass must see.
// Headers that carry it (fp16, quant_type, blocks, scale_packing, q8_1_layout) stay free of
// host-only constructs so the CUDA kernels of this folder can include them unchanged.
#if defined(__CUDACC__)
#define GRIDFUZZ_GGUF_HD __host__ __device__
#else
#define GRIDFUZZ_GGUF_HD
#endif
