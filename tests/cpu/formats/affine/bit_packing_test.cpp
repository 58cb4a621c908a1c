#include "gridfuzz/formats/affine/bit_packing.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "gridfuzz/formats/affine/params.hpp"
#include "test_support.hpp"

namespace gridfuzz::formats::affine {
namespace {

using Words = std::vector<std::uint32_t>;

// A 32-element row (bits words) where only element j is non-zero.
Words row_with_one_element(int bits, std::size_t j, std::uint32_t value) {
  Words words(static_cast<std::size_t>(bits), 0u);
  pack_element(words.data(), j, bits, value);
  return words;
}

struct Placement {
  int bits;
  std::size_t j;
  std::uint32_t value;
  Words expected;  // worked out by hand from "element j occupies stream bits [j*bits, (j+1)*bits)"
};

// Every expected word below was derived by hand; the comment says where the bits land.
const std::vector<Placement> kPlacements = {
    // 2-bit
    {2, 5, 0b11, {0x00000C00, 0}},  // bits 10..11
    {2, 15, 0b10, {0x80000000, 0}},  // bits 30..31, only the high bit set
    {2, 16, 0b01, {0, 0x00000001}},  // bit 32 = word1 bit 0
    {2, 31, 0b11, {0, 0xC0000000}},  // last element: word1 bits 30..31
    // 3-bit (straddles at elements 10 and 21)
    {3, 1, 0b111, {0x00000038, 0, 0}},  // bits 3..5
    {3, 10, 0b101, {0x40000000, 0x00000001, 0}},  // bits 30..32: word0 bit 30, word1 bit 0
    {3, 10, 0b111, {0xC0000000, 0x00000001, 0}},  // word0 bits 30-31, word1 bit 0
    {3, 10, 0b010, {0x80000000, 0, 0}},  // only stream bit 31 set
    {3, 10, 0b100, {0, 0x00000001, 0}},  // only stream bit 32 set
    {3, 21, 0b011, {0, 0x80000000, 0x00000001}},  // bits 63..65: word1 bit 31, word2 bit 0
    {3, 21, 0b110, {0, 0, 0x00000003}},  // bit 63 clear, word2 bits 0-1
    {3, 31, 0b111, {0, 0, 0xE0000000}},  // bits 93..95
    // 4-bit
    {4, 3, 0xA, {0x0000A000, 0, 0, 0}},
    {4, 7, 0x9, {0x90000000, 0, 0, 0}},
    {4, 8, 0xF, {0, 0x0000000F, 0, 0}},
    // 5-bit (straddles at elements 6, 12, 19, 25)
    {5, 6, 0b10011, {0xC0000000, 0x00000004, 0, 0, 0}},  // bits 30..34: w0 bits 30,31; w1 bit 2
    {5, 12, 0b10101, {0, 0x50000000, 0x00000001, 0, 0}},  // bits 60..64: w1 bits 28,30; w2 bit 0
    {5, 19, 0b11111, {0, 0, 0x80000000, 0x0000000F, 0}},  // bits 95..99: w2 bit 31, w3 bits 0..3
    {5, 25, 0b01101, {0, 0, 0, 0xA0000000, 0x00000001}},  // bits 125..129: w3 bits 29,31; w4 bit 0
    {5, 31, 0b11111, {0, 0, 0, 0, 0xF8000000}},  // bits 155..159
    // 6-bit (straddles at elements 5 and 10; 16 starts word 3)
    {6, 5, 0b111111, {0xC0000000, 0x0000000F, 0, 0, 0, 0}},  // bits 30..35
    {6, 5, 0b100001, {0x40000000, 0x00000008, 0, 0, 0, 0}},  // b0 -> w0 bit 30; b5 -> w1 bit 3
    {6, 10, 0b101010, {0, 0xA0000000, 0x00000002, 0, 0, 0}},  // bits 60..65: w1 29,31; w2 bit 1
    {6, 16, 0b101101, {0, 0, 0, 0x0000002D, 0, 0}},  // bits 96..101
    {6, 31, 0b111111, {0, 0, 0, 0, 0, 0xFC000000}},  // bits 186..191
    // 8-bit
    {8, 2, 0xAB, {0x00AB0000, 0, 0, 0, 0, 0, 0, 0}},
    {8, 5, 0x7F, {0, 0x00007F00, 0, 0, 0, 0, 0, 0}},
    {8, 31, 0xFF, {0, 0, 0, 0, 0, 0, 0, 0xFF000000}},
};

TEST(BitPacking, HandPlacedElementsLandOnTheirBits) {
  for (const Placement& p : kPlacements) {
    SCOPED_TRACE("bits " + std::to_string(p.bits) + " element " + std::to_string(p.j));
    ASSERT_EQ(p.expected.size(), static_cast<std::size_t>(p.bits));  // 32 elements per row
    EXPECT_EQ(row_with_one_element(p.bits, p.j, p.value), p.expected);
    EXPECT_EQ(unpack_element(p.expected.data(), p.j, p.bits), p.value);
    // The neighbours read as zero: nothing leaked sideways.
    if (p.j > 0) {
      EXPECT_EQ(unpack_element(p.expected.data(), p.j - 1, p.bits), 0u);
    }
    if (p.j < 31) {
      EXPECT_EQ(unpack_element(p.expected.data(), p.j + 1, p.bits), 0u);
    }
  }
}

TEST(BitPacking, EveryBitWidthHasAHandCase) {
  for (int bits : kSupportedBits) {
    bool found = false;
    for (const Placement& p : kPlacements) found = found || p.bits == bits;
    EXPECT_TRUE(found) << bits;
  }
}

TEST(BitPacking, WholeWordsOfConsecutiveValues) {
  // Element i at bit offset bits*i for the power-of-two widths.
  const std::vector<std::uint8_t> nibbles = {0, 1, 2, 3, 4, 5, 6, 7};
  Words four(1);
  pack_row(nibbles, 4, four);
  EXPECT_EQ(four[0], 0x76543210u);

  const std::vector<std::uint8_t> bytes = {1, 2, 3, 4};
  Words eight(1);
  pack_row(bytes, 8, eight);
  EXPECT_EQ(eight[0], 0x04030201u);

  const std::vector<std::uint8_t> pairs = {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3};
  Words two(1);
  pack_row(pairs, 2, two);
  EXPECT_EQ(two[0], 0xE4E4E4E4u);

  // 3-bit: 8 values fill 3 bytes (the readers take 3 bytes per 8 values): 0..7 -> 0xFAC688.
  std::vector<std::uint8_t> threes(32, 0);
  for (std::uint8_t i = 0; i < 8; ++i) threes[i] = i;
  Words three(3);
  pack_row(threes, 3, three);
  EXPECT_EQ(three, (Words{0x00FAC688u, 0, 0}));
}

TEST(BitPacking, PackElementLeavesNeighboursAndTheNextRowAlone) {
  for (int bits : kSupportedBits) {
    SCOPED_TRACE(bits);
    // One 32-element row followed by a sentinel word that belongs to the next row.
    Words words(static_cast<std::size_t>(bits) + 1, 0u);
    words.back() = 0xDEADBEEFu;
    const std::uint32_t all_ones = (1u << bits) - 1u;
    for (std::size_t j = 0; j < 32; ++j) pack_element(words.data(), j, bits, all_ones);
    EXPECT_EQ(words.back(), 0xDEADBEEFu);
    for (std::size_t w = 0; w + 1 < words.size(); ++w) EXPECT_EQ(words[w], 0xFFFFFFFFu);
    // Clearing one element clears exactly its bits.
    pack_element(words.data(), 17, bits, 0);
    for (std::size_t j = 0; j < 32; ++j) {
      EXPECT_EQ(unpack_element(words.data(), j, bits), j == 17 ? 0u : all_ones);
    }
  }
}

TEST(BitPacking, RowHelpersRejectMisuse) {
  std::vector<std::uint8_t> values(32, 0);
  Words words(4);
  EXPECT_NO_THROW(pack_row(values, 4, words));
  Words wrong(3);
  EXPECT_THROW(pack_row(values, 4, wrong), std::invalid_argument);
  EXPECT_THROW(pack_row(values, 7, words), std::invalid_argument);
  values[3] = 16;  // needs 5 bits
  EXPECT_THROW(pack_row(values, 4, words), std::invalid_argument);
  // 10 three-bit values are 30 bits: not whole words.
  std::vector<std::uint8_t> ten(10, 0);
  Words one(1);
  EXPECT_THROW(pack_row(ten, 3, one), std::invalid_argument);
  EXPECT_THROW(unpack_row(one, 3, ten), std::invalid_argument);
}

TEST(BitPacking, PackedWordCount) {
  EXPECT_EQ(packed_word_count(32, 3), 3u);
  EXPECT_EQ(packed_word_count(64, 5), 10u);
  EXPECT_EQ(packed_word_count(10, 3), 1u);   // 30 bits
  EXPECT_EQ(packed_word_count(11, 3), 2u);   // 33 bits
  EXPECT_EQ(packed_word_count(4096, 4), 512u);
}

// Random rows: pack_row then unpack_row returns the values, and every element agrees with a
// bit-by-bit reading of the stream definition.
RC_GTEST_PROP(BitPacking, RoundTripMatchesBitStream, ()) {
  const int bits = *rc::gen::elementOf(kSupportedBits);
  const std::size_t count = 32 * *rc::gen::inRange<std::size_t>(1, 9);
  const auto values = *rc::gen::container<std::vector<std::uint8_t>>(
      count, rc::gen::inRange<std::uint8_t>(0, static_cast<std::uint8_t>((1u << bits) - 1u) + 1));
  Words words(count * static_cast<std::size_t>(bits) / 32);
  pack_row(values, bits, words);
  std::vector<std::uint8_t> back(count);
  unpack_row(words, bits, back);
  RC_ASSERT(back == values);
  for (std::size_t j = 0; j < count; ++j) {
    RC_ASSERT(test::naive_read(words, j, bits) == values[j]);
  }
}

// Rewriting one element of a random row changes that element only.
RC_GTEST_PROP(BitPacking, PackElementIsLocal, ()) {
  const int bits = *rc::gen::elementOf(kSupportedBits);
  const std::size_t count = 32 * *rc::gen::inRange<std::size_t>(1, 5);
  Words words = *rc::gen::container<Words>(count * static_cast<std::size_t>(bits) / 32,
                                           rc::gen::arbitrary<std::uint32_t>());
  const Words before = words;
  const std::size_t j = *rc::gen::inRange<std::size_t>(0, count);
  const std::uint32_t value = *rc::gen::inRange<std::uint32_t>(0, 1u << bits);
  pack_element(words.data(), j, bits, value);
  Words expected = before;
  test::naive_write(expected, j, bits, value);
  RC_ASSERT(words == expected);
  RC_ASSERT(unpack_element(words.data(), j, bits) == value);
}

}  // namespace
}  // namespace gridfuzz::formats::affine
