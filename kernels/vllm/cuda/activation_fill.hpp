#pragma once
// Seeded random activations in the dtype of a vLLM GGUF call (f32, f16 or bf16), generated on the
// GPU. f32 is the GGUF family's fill_activations; f16/bf16 draw the same distribution (random sign,
// magnitude in [0.25, 1)) and store it rounded to nearest in the 16-bit type, as a torch tensor of
// that dtype holds it. Rounding keeps |x| in [0.25, 1], so every q8_1 quant of a real column still
// has |q| >= 32 and no q8_1 word can equal the int32 poison (random_fill.hpp).
#include <cuda.h>

#include <cstdint>

#include "upstream_kernels.hpp"

namespace gridfuzz::vllm {

void fill_activations(ScalarKind k, CUdeviceptr x, std::uint64_t n, std::uint64_t seed, CUstream stream);

}  // namespace gridfuzz::vllm
