#include "gridfuzz/formats/affine/bit_packing.hpp"

#include <stdexcept>
#include <string>

#include "gridfuzz/formats/affine/params.hpp"

namespace gridfuzz::formats::affine {

namespace {

void check_row(std::size_t count, int bits, std::size_t word_count, const char* who) {
  if (!is_supported_bits(bits)) {
    throw std::invalid_argument(std::string(who) + ": unsupported bits " + std::to_string(bits));
  }
  if (auto error = validate_packing(count, bits)) {
    throw std::invalid_argument(std::string(who) + ": " + *error);
  }
  const std::size_t expected = count * static_cast<std::size_t>(bits) / 32;
  if (word_count != expected) {
    throw std::invalid_argument(std::string(who) + ": " + std::to_string(count) + " values of " +
                                std::to_string(bits) + " bits need " + std::to_string(expected) +
                                " words, got " + std::to_string(word_count));
  }
}

}  // namespace

void pack_row(std::span<const std::uint8_t> values, int bits, std::span<std::uint32_t> words) {
  check_row(values.size(), bits, words.size(), "pack_row");
  const unsigned limit = 1u << bits;
  for (std::size_t w = 0; w < words.size(); ++w) words[w] = 0;
  for (std::size_t j = 0; j < values.size(); ++j) {
    if (values[j] >= limit) {
      throw std::invalid_argument("pack_row: value " + std::to_string(values[j]) + " at " +
                                  std::to_string(j) + " does not fit in " + std::to_string(bits) +
                                  " bits");
    }
    pack_element(words.data(), j, bits, values[j]);
  }
}

void unpack_row(std::span<const std::uint32_t> words, int bits, std::span<std::uint8_t> values) {
  check_row(values.size(), bits, words.size(), "unpack_row");
  for (std::size_t j = 0; j < values.size(); ++j) {
    values[j] = static_cast<std::uint8_t>(unpack_element(words.data(), j, bits));
  }
}

}  // namespace gridfuzz::formats::affine
