#pragma once
// Device-side operations of the affine family, callable from plain C++: random inputs for large
// buffers, dequantization of packed weights, and issuing one planned matmul launch.
#include <cuda.h>

#include <cstdint>

#include "gridfuzz/affine/formats.hpp"
#include "gridfuzz/affine/matmul_plan.hpp"
#include "gridfuzz/device/launcher.hpp"

namespace gridfuzz::affine {

// count 16-bit values of `dtype` with magnitudes in [min_magnitude, max_magnitude) and random
// signs, from a seeded hash of the index: never zero as long as min_magnitude is a normal number
// of dtype. Stream-ordered.
void fill_random_16bit(CUdeviceptr out, std::uint64_t count, Dtype dtype, float min_magnitude, float max_magnitude,
                       std::uint64_t seed, CUstream stream);
// count random 32-bit words (every packed quant value equally likely).
void fill_random_words(CUdeviceptr out, std::uint64_t count, std::uint64_t seed, CUstream stream);
// mlx-lm's sorted gather form: lhs[p] = p / top_k (the token of pair p), rhs[p] = a seeded random
// expert in [0, experts).
void fill_pair_indices(CUdeviceptr lhs, CUdeviceptr rhs, std::uint64_t pairs, std::uint64_t top_k,
                       std::uint64_t experts, std::uint64_t seed, CUstream stream);
// out[r][c] = dtype(scale*q + bias) for rows x k packed weights (the bench's cuBLAS operand).
void dequantize_weights(CUdeviceptr w, CUdeviceptr scales, CUdeviceptr biases, CUdeviceptr out, std::uint64_t rows,
                        std::uint64_t k, int bits, int group_size, Dtype dtype, CUstream stream);

struct MatmulBuffers {
  CUdeviceptr x = 0, w = 0, scales = 0, biases = 0;
  CUdeviceptr lhs = 0, rhs = 0;  // 0 for the dense call
  CUdeviceptr out = 0;
};

// Issues `launch` (one entry of a plan) on the whole-call buffers: the chunk's row/batch offsets
// are applied to the pointers here, in 64-bit. `checked` selects launch_checked (fixed) or an
// unchecked launch (legacy, as upstream).
const device::LaunchRecord& launch_planned(const AffineLaunch& launch, const MatmulShape& shape,
                                           const MatmulBuffers& buffers, device::Launcher& launcher, CUstream stream,
                                           bool checked);

}  // namespace gridfuzz::affine
