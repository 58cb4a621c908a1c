#pragma once
// Valid inputs of an affine matmul case in host memory, for running its CPU reference without a
// GPU, drawn as the GPU fill draws them (affine_matmul_kernel.cpp): activations in [1/16, 1),
// scales in [2^-9, 2^-6), biases in [2^-6, 2^-3), each of random sign and stored in the case's
// 16-bit dtype; random quant words (every bit pattern is a valid quant); for a gather case, pair
// p reads activation slice p / top_k and a random expert.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "gridfuzz/affine/formats.hpp"
#include "gridfuzz/affine/matmul_plan.hpp"
#include "host_buffers.hpp"

namespace gridfuzz::affine::test {

inline void fill_matmul_inputs(const MatmulShape& s, gridfuzz::testing::HostBuffers& b, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const auto fill16 = [&](const char* name, double lo, double hi) {
    std::vector<std::uint8_t>& raw = b.raw(name);
    for (std::size_t i = 0; i < raw.size() / 2; ++i) {
      const double u = std::ldexp(static_cast<double>(rng() >> 11), -53);
      const float v = static_cast<float>((rng() & 1 ? -1 : 1) * (lo + (hi - lo) * u));
      const std::uint16_t bits = to_16bit_pattern(v, s.dtype);
      std::memcpy(raw.data() + 2 * i, &bits, 2);
    }
  };
  fill16("x", 1.0 / 16, 1.0);
  fill16("scales", 1.0 / 512, 1.0 / 64);
  fill16("biases", 1.0 / 64, 1.0 / 8);
  std::vector<std::uint8_t>& w = b.raw("w");
  for (std::size_t i = 0; i < w.size() / 4; ++i) {
    const auto word = static_cast<std::uint32_t>(rng());
    std::memcpy(w.data() + 4 * i, &word, 4);
  }
  if (s.gather) {
    const std::uint64_t top_k = s.batches / s.x_batches;
    std::vector<std::uint8_t>& lhs = b.raw("lhs_indices");
    std::vector<std::uint8_t>& rhs = b.raw("rhs_indices");
    for (std::uint64_t p = 0; p < s.batches; ++p) {
      const auto l = static_cast<std::uint32_t>(p / top_k);
      const auto r = static_cast<std::uint32_t>(rng() % s.experts);
      std::memcpy(lhs.data() + 4 * p, &l, 4);
      std::memcpy(rhs.data() + 4 * p, &r, 4);
    }
  }
}

}  // namespace gridfuzz::affine::test
