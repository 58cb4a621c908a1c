#pragma once
// The packed layout of quantized weights: each row is a little-endian bit stream cut into
// uint32 words. Element j occupies stream bits [j*bits, (j+1)*bits), and stream bit b is bit
// (b % 32) of word b / 32. For power-of-two widths this is "element i of a word at bit offset
// bits*i"; 3, 5 and 6-bit elements can straddle two words. The element accessors are shared
// with the CUDA kernels, so the GPU and the CPU reference cannot disagree on the layout.
#include <cstddef>
#include <cstdint>
#include <span>

#include "gridfuzz/formats/host_device.hpp"

namespace gridfuzz::formats::affine {

// Words that hold `count` elements of `bits` bits (the last one possibly partly used).
GRIDFUZZ_FORMATS_HD constexpr std::size_t packed_word_count(std::size_t count, int bits) {
  return (count * static_cast<std::size_t>(bits) + 31) / 32;
}

// Element j of a packed row; bits in [1, 8]. Reads the next word only when j straddles into it,
// so the last element of a row never reads past the row.
GRIDFUZZ_FORMATS_HD inline std::uint32_t unpack_element(const std::uint32_t* row_words, std::size_t j,
                                                int bits) {
  const std::uint64_t first_bit = static_cast<std::uint64_t>(j) * static_cast<unsigned>(bits);
  const std::size_t word = static_cast<std::size_t>(first_bit / 32);
  const unsigned offset = static_cast<unsigned>(first_bit % 32);
  const std::uint32_t mask = (1u << bits) - 1u;
  std::uint32_t value = row_words[word] >> offset;
  if (offset + static_cast<unsigned>(bits) > 32) {
    value |= row_words[word + 1] << (32u - offset);  // offset > 24 here, so the shift is < 8
  }
  return value & mask;
}

// Writes element j (value < 2^bits, higher bits ignored) without touching its neighbours.
GRIDFUZZ_FORMATS_HD inline void pack_element(std::uint32_t* row_words, std::size_t j, int bits,
                                     std::uint32_t value) {
  const std::uint64_t first_bit = static_cast<std::uint64_t>(j) * static_cast<unsigned>(bits);
  const std::size_t word = static_cast<std::size_t>(first_bit / 32);
  const unsigned offset = static_cast<unsigned>(first_bit % 32);
  const std::uint32_t mask = (1u << bits) - 1u;
  value &= mask;
  row_words[word] = (row_words[word] & ~(mask << offset)) | (value << offset);
  if (offset + static_cast<unsigned>(bits) > 32) {
    const unsigned spill = 32u - offset;  // bits that fit in the first word
    row_words[word + 1] = (row_words[word + 1] & ~(mask >> spill)) | (value >> spill);
  }
}

// Whole-row helpers (host only), for rows that fill whole words (validate_packing). Both throw
// std::invalid_argument when bits is unsupported, values.size()*bits is not a multiple of 32,
// `words` does not have values.size()*bits/32 entries, or (pack_row) a value needs more than
// `bits` bits.
void pack_row(std::span<const std::uint8_t> values, int bits, std::span<std::uint32_t> words);
void unpack_row(std::span<const std::uint32_t> words, int bits, std::span<std::uint8_t> values);

}  // namespace gridfuzz::formats::affine
