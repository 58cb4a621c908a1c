#pragma once
// Valid inputs of a GGUF GEMV call in host memory, for running its CPU reference without a GPU:
// activations of random sign and magnitude in [0.25, 1) (as the GPU fill draws them; f32, or
// bf16/f16 rounded to nearest even when the buffer is 16-bit, as in a vLLM call), weight rows
// quantized by the CPU quantizer from values of the same kind (valid blocks of any weight type),
// expert ids in range. By buffer name, so it serves every adapter with the GGUF family's names.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "gridfuzz/gguf/formats.hpp"
#include "gridfuzz/kernel.hpp"
#include "gridfuzz/params.hpp"
#include "host_buffers.hpp"

namespace gridfuzz::gguf::testing {

// The case's params give the weight type (quant), the row length (cols) and, when the case has
// expert ids, the experts.
inline void fill_gemv_inputs(const Params& p, gridfuzz::testing::HostBuffers& b, std::uint64_t seed) {
  const QuantType quant = *parse_quant_type(p.get("quant"));
  const std::uint64_t cols = p.get_u64("cols");
  const std::uint64_t row_bytes = quant_row_bytes(quant, cols);
  std::mt19937_64 rng(seed);
  const auto value = [&] {
    return static_cast<float>((rng() & 1 ? -1 : 1) * (0.25 + 0.75 * std::ldexp(static_cast<double>(rng() >> 11), -53)));
  };
  // f32, or the 16-bit activations of a vLLM call (bf16 or f16 patterns of the same values).
  std::vector<std::uint8_t>& x = b.raw("x");
  const ElementType x_type = b.spec("x").type;
  const std::size_t x_bytes = element_bytes(x_type);
  for (std::size_t i = 0; i < x.size() / x_bytes; ++i) {
    const float v = value();
    if (x_type == ElementType::f32) {
      std::memcpy(x.data() + 4 * i, &v, 4);
    } else {
      std::uint32_t u = 0;
      std::memcpy(&u, &v, 4);
      const auto bits = x_type == ElementType::f16 ? float_to_half_bits(v)
                                                   : static_cast<std::uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
      std::memcpy(x.data() + 2 * i, &bits, 2);
    }
  }
  std::vector<std::uint8_t>& w = b.raw("weights");
  std::vector<float> row(cols);
  for (std::uint64_t r = 0; r < w.size() / row_bytes; ++r) {
    for (float& v : row) v = value();
    quantize_row(quant, row.data(), w.data() + r * row_bytes, cols);
  }
  if (b.has("expert_ids")) {
    const std::uint64_t experts = p.get_u64("experts");
    std::vector<std::uint8_t>& ids = b.raw("expert_ids");
    for (std::size_t i = 0; i < ids.size() / 4; ++i) {
      const int id = static_cast<int>(rng() % experts);
      std::memcpy(ids.data() + 4 * i, &id, 4);
    }
  }
}

}  // namespace gridfuzz::gguf::testing
