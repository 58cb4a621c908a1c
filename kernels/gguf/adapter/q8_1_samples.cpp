#include "q8_1_samples.hpp"

#include <algorithm>
#include <cstring>
#include <random>

#include "gridfuzz/gguf/formats.hpp"

namespace gridfuzz::gguf {

std::vector<ReferenceSample> q8_1_word_samples(std::size_t q8_buffer, std::uint64_t rows, std::uint64_t cols,
                                               std::uint64_t rng_seed, std::size_t count,
                                               const std::function<void(std::uint64_t row, float* x)>& read_row) {
  const std::uint64_t stride = q8_1_row_stride_int32(cols);
  const std::size_t per_row = 16;
  std::mt19937_64 rng(rng_seed);
  std::vector<ReferenceSample> out;
  std::vector<float> x(cols);
  std::vector<block_q8_1> q(q8_1_blocks_per_row(cols));
  for (std::size_t k = 0; k < count; k += per_row) {
    const std::uint64_t row =
        (k / per_row) % 2 ? rows - 1 - rng() % std::min<std::uint64_t>(rows, 16) : rng() % rows;
    read_row(row, x.data());
    quantize_row_q8_1(x.data(), cols, q.data());
    for (std::size_t j = 0; j < per_row && k + j < count; ++j) {
      const std::uint64_t word = j == 0 ? stride - 1 : rng() % stride;
      std::int32_t w = 0;
      std::memcpy(&w, reinterpret_cast<const std::uint8_t*>(q.data()) + word * 4, 4);
      out.push_back({q8_buffer, row * stride + word, static_cast<double>(w), 0, 0});
    }
  }
  return out;
}

}  // namespace gridfuzz::gguf
