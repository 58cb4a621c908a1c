#pragma once
// GRIDFUZZ_HD marks small functions that the CPU reference and the CUDA kernels must share
// (bit layout, number formats), so both sides compile the exact same code.
#if defined(__CUDACC__)
#define GRIDFUZZ_HD __host__ __device__
#else
#define GRIDFUZZ_HD
#endif
