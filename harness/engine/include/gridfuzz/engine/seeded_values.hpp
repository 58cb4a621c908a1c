#pragma once
// The values of BoundCase::fill_inputs' default: one element's bits from (seed, buffer index,
// element index) alone, so the GPU fill (seeded_fill.cu) and a CPU test compute the same, and
// the values do not depend on the fill's grid. Never zero: floats in [0.5, 2) (an exponent of -1
// or 0 and random mantissa bits, so each value is exact in its type: no rounding differs between
// host and device), integers in [1, 127] (they fit every integer type, int8 included).
#include <cstdint>

#include "gridfuzz/kernel.hpp"

#if defined(__CUDACC__)
#define GRIDFUZZ_HOST_DEVICE __host__ __device__
#else
#define GRIDFUZZ_HOST_DEVICE
#endif

namespace gridfuzz {

// splitmix64's finaliser: every input bit reaches every output bit.
GRIDFUZZ_HOST_DEVICE inline std::uint64_t mix_bits(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// The raw bits of element `element` of buffer `buffer` (as element_bytes(type) low bytes).
GRIDFUZZ_HOST_DEVICE inline std::uint32_t seeded_element_bits(ElementType type, std::uint64_t seed, std::uint64_t buffer,
                                                              std::uint64_t element) {
  const std::uint64_t h = mix_bits(mix_bits(seed ^ (0x9e3779b97f4a7c15ull * (buffer + 1))) + element);
  const std::uint32_t high = static_cast<std::uint32_t>(h >> 32);
  const std::uint32_t below_one = static_cast<std::uint32_t>(h & 1);  // exponent -1 (in [0.5, 1)) or 0 ([1, 2))
  switch (type) {
    case ElementType::f32: return ((127u - below_one) << 23) | (high & 0x7fffffu);
    case ElementType::f16: return ((15u - below_one) << 10) | (high & 0x3ffu);
    case ElementType::bf16: return ((127u - below_one) << 7) | (high & 0x7fu);
    case ElementType::i32:
    case ElementType::u32:
    case ElementType::u8: return 1u + high % 127u;
  }
  return 1u;
}

}  // namespace gridfuzz
