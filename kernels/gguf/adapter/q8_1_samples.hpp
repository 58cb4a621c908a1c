#pragma once
// The CPU reference of a q8_1 quantizer call (gguf.quantize_q8_1, and vllm.quantize_q8_1 on
// upstream's kernel): sampled words of the q8_1 buffer against gridfuzz's CPU quantizer
// (gridfuzz/formats/gguf/quantize_q8_1.hpp), bit for bit (the same float operations in the same order).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "gridfuzz/kernel.hpp"

namespace gridfuzz::gguf {

// `count` samples of the q8_1 buffer `q8_buffer` ([rows, q8_1_row_stride_int32(cols)] int32
// words), 16 a sampled row: every other row among the last 16 (where a grid.y or tile offset bug
// shows first), the others anywhere; each row's first sample is its last word. `rng_seed` seeds
// the choice. read_row(row, x) fills x[0, cols) with the row's activations as float, exactly as
// the kernel reads them.
std::vector<ReferenceSample> q8_1_word_samples(std::size_t q8_buffer, std::uint64_t rows, std::uint64_t cols,
                                               std::uint64_t rng_seed, std::size_t count,
                                               const std::function<void(std::uint64_t row, float* x)>& read_row);

}  // namespace gridfuzz::gguf
