#pragma once
// GRIDFUZZ_FORMATS_HD marks the functions of the formats that a CUDA kernel calls too (block
// layouts, half and bfloat16 conversions, scale packing, bit packing), so the CPU reference and
// the kernel compile the same code and cannot disagree on a layout. The headers that carry it
// (gguf/: fp16, quant_type, blocks, scale_packing, q8_1_layout; affine/: half_types, bit_packing)
// stay free of host-only constructs, so device code can include them unchanged.
#if defined(__CUDACC__)
#define GRIDFUZZ_FORMATS_HD __host__ __device__
#else
#define GRIDFUZZ_FORMATS_HD
#endif
