#pragma once
// Independent helpers for the affine tests: a naive bit-stream reader/writer and 16-bit decoders
// written from the format definitions, so the tests do not check the library against itself.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gridfuzz::formats::affine::test {

// Stream bit b of a row is bit (b % 32) of word b / 32; element j is stream bits
// [j*bits, (j+1)*bits), least significant first.
inline std::uint32_t naive_read(const std::vector<std::uint32_t>& words, std::size_t j, int bits) {
  std::uint32_t v = 0;
  for (int i = 0; i < bits; ++i) {
    const std::size_t b = j * static_cast<std::size_t>(bits) + static_cast<std::size_t>(i);
    v |= ((words[b / 32] >> (b % 32)) & 1u) << i;
  }
  return v;
}

inline void naive_write(std::vector<std::uint32_t>& words, std::size_t j, int bits,
                        std::uint32_t value) {
  for (int i = 0; i < bits; ++i) {
    const std::size_t b = j * static_cast<std::size_t>(bits) + static_cast<std::size_t>(i);
    const std::uint32_t bit = 1u << (b % 32);
    if ((value >> i) & 1u) {
      words[b / 32] |= bit;
    } else {
      words[b / 32] &= ~bit;
    }
  }
}

// bf16 is the top half of a float32.
inline double naive_bf16(std::uint16_t h) {
  const int sign = (h >> 15) ? -1 : 1;
  const int exp = (h >> 7) & 0xff;
  const int mant = h & 0x7f;
  if (exp == 0) return sign * std::ldexp(static_cast<double>(mant), -133);
  return sign * std::ldexp(static_cast<double>(128 + mant), exp - 127 - 7);
}

// binary16 from its definition (finite values only).
inline double naive_fp16(std::uint16_t h) {
  const int sign = (h >> 15) ? -1 : 1;
  const int exp = (h >> 10) & 0x1f;
  const int mant = h & 0x3ff;
  if (exp == 0) return sign * std::ldexp(static_cast<double>(mant), -24);
  return sign * std::ldexp(static_cast<double>(1024 + mant), exp - 15 - 10);
}

}  // namespace gridfuzz::formats::affine::test
