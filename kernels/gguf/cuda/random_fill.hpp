#pragma once
// Seeded random inputs generated on the GPU (cases reach hundreds of MB): activations, weight
// blocks with realistic fp16 scales, expert ids. Never zeros.
#include <cuda.h>

#include <cstdint>

#include "gridfuzz/gguf/formats.hpp"

namespace gridfuzz::gguf {

// Values with random sign and magnitude in [0.25, 1): never zero, and every q8_1 quant of a real
// column then has |q| >= 32 (|x|/amax > 1/4), so no q8_1 word can equal the harness's int32
// poison 0xDEADBEEF (its first byte would be q = -17; a d/s word has d >= 0, the poison's low half
// is a negative half): a surviving poison word really is unwritten.
void fill_activations(float* x, std::uint64_t n, std::uint64_t seed, CUstream stream);

// `blocks` blocks of type t: random quant bytes, then every fp16 field overwritten with a finite
// scale of a realistic magnitude for the type (d, dmin > 0; q4_1/q5_1 m < 0).
void fill_weight_blocks(std::uint8_t* w, std::uint64_t blocks, QuantType t, std::uint64_t seed, CUstream stream);

// n ids uniform in [0, experts).
void fill_expert_ids(int* ids, std::uint64_t n, std::uint64_t experts, std::uint64_t seed, CUstream stream);

}  // namespace gridfuzz::gguf
