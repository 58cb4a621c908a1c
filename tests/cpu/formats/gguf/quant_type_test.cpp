#include <gtest/gtest.h>

#include <set>
#include <string>

#include "gridfuzz/formats/gguf/quant_type.hpp"
#include "gridfuzz/formats/gguf/quant_type_names.hpp"

namespace gridfuzz::formats::gguf {
namespace {

TEST(QuantType, IdsAreGgmlTypeIds) {
  EXPECT_EQ(static_cast<int>(QuantType::q4_0), 2);
  EXPECT_EQ(static_cast<int>(QuantType::q4_1), 3);
  EXPECT_EQ(static_cast<int>(QuantType::q5_0), 6);
  EXPECT_EQ(static_cast<int>(QuantType::q5_1), 7);
  EXPECT_EQ(static_cast<int>(QuantType::q8_0), 8);
  EXPECT_EQ(static_cast<int>(QuantType::q8_1), 9);
  EXPECT_EQ(static_cast<int>(QuantType::q2_K), 10);
  EXPECT_EQ(static_cast<int>(QuantType::q3_K), 11);
  EXPECT_EQ(static_cast<int>(QuantType::q4_K), 12);
  EXPECT_EQ(static_cast<int>(QuantType::q5_K), 13);
  EXPECT_EQ(static_cast<int>(QuantType::q6_K), 14);
  EXPECT_EQ(static_cast<int>(QuantType::iq4_nl), 20);
  EXPECT_EQ(static_cast<int>(QuantType::iq4_xs), 23);
  EXPECT_EQ(static_cast<int>(QuantType::iq2_xxs), 16);
  EXPECT_EQ(static_cast<int>(QuantType::iq2_xs), 17);
  EXPECT_EQ(static_cast<int>(QuantType::iq3_xxs), 18);
  EXPECT_EQ(static_cast<int>(QuantType::iq1_s), 19);
  EXPECT_EQ(static_cast<int>(QuantType::iq3_s), 21);
  EXPECT_EQ(static_cast<int>(QuantType::iq2_s), 22);
  EXPECT_EQ(static_cast<int>(QuantType::iq1_m), 29);
}

TEST(QuantType, TraitsOfTheKernelsTable) {
  // (qk, bytes, qr, qi, vdr) from docs/KERNELS.md, "GGUF block layouts".
  auto expect = [](QuantType t, unsigned qk, unsigned bytes, unsigned qr, unsigned qi, unsigned vdr) {
    const QuantTraits tr = quant_traits(t);
    EXPECT_EQ(tr.qk, qk) << tr.name;
    EXPECT_EQ(tr.block_bytes, bytes) << tr.name;
    EXPECT_EQ(tr.qr, qr) << tr.name;
    EXPECT_EQ(tr.qi, qi) << tr.name;
    EXPECT_EQ(tr.vdr, vdr) << tr.name;
  };
  expect(QuantType::q4_0, 32, 18, 2, 4, 2);
  expect(QuantType::q4_1, 32, 20, 2, 4, 2);
  expect(QuantType::q5_0, 32, 22, 2, 4, 2);
  expect(QuantType::q5_1, 32, 24, 2, 4, 2);
  expect(QuantType::q8_0, 32, 34, 1, 8, 2);
  expect(QuantType::q8_1, 32, 36, 1, 8, 0);
  expect(QuantType::q2_K, 256, 84, 4, 16, 1);
  expect(QuantType::q3_K, 256, 110, 4, 16, 1);
  expect(QuantType::q4_K, 256, 144, 2, 32, 2);
  expect(QuantType::q5_K, 256, 176, 2, 32, 2);
  expect(QuantType::q6_K, 256, 210, 2, 32, 1);
  expect(QuantType::iq4_nl, 32, 18, 2, 4, 2);
  expect(QuantType::iq4_xs, 256, 136, 8, 8, 1);
  // Codebook i-quants: bytes per 256 values as the GGUF spec gives them (gguf-py
  // GGML_QUANT_SIZES: 2 + 256/4 for iq2_xxs, + 256/32 iq2_xs, + 256/16 iq2_s, 2 + 3*256/8 iq3_xxs,
  // 2 + 256/4 + 256/8 + 256/32 + 256/64 iq3_s, 2 + 256/8 + 256/16 iq1_s, 256/8 + 256/16 + 256/32 iq1_m).
  expect(QuantType::iq2_xxs, 256, 2 + 64, 8, 8, 1);
  expect(QuantType::iq2_xs, 256, 2 + 64 + 8, 8, 8, 1);
  expect(QuantType::iq2_s, 256, 2 + 64 + 16, 8, 8, 1);
  expect(QuantType::iq3_xxs, 256, 2 + 96, 8, 8, 1);
  expect(QuantType::iq3_s, 256, 2 + 64 + 32 + 8 + 4, 8, 8, 1);
  expect(QuantType::iq1_s, 256, 2 + 32 + 16, 8, 8, 1);
  expect(QuantType::iq1_m, 256, 32 + 16 + 8, 8, 8, 1);
}

TEST(QuantType, QiIsQkOverFourQr) {
  // vLLM's definition: QI = QK / (4 * QR) (ints of quants per block).
  for (QuantType t : all_quant_types()) {
    const QuantTraits tr = quant_traits(t);
    EXPECT_EQ(tr.qi, tr.qk / (4 * tr.qr)) << tr.name;
  }
}

TEST(QuantType, LaneMappingOfKernels33) {
  // q4_0: 2 lanes per block, 16 blocks per warp step; iq4_xs (qi 8, vdr 1): 8 lanes, 4 blocks.
  EXPECT_EQ(lanes_per_block(QuantType::q4_0), 2u);
  EXPECT_EQ(blocks_per_warp(QuantType::q4_0), 16u);
  EXPECT_EQ(lanes_per_block(QuantType::iq4_xs), 8u);
  EXPECT_EQ(blocks_per_warp(QuantType::iq4_xs), 4u);
  EXPECT_EQ(blocks_per_warp(QuantType::q6_K), 1u);
  EXPECT_EQ(blocks_per_warp(QuantType::q8_0), 8u);
}

TEST(QuantType, RowBytes) {
  EXPECT_EQ(quant_row_bytes(QuantType::q4_0, 2816), 88u * 18u);
  EXPECT_EQ(quant_row_bytes(QuantType::q6_K, 4096), 16u * 210u);
}

TEST(QuantTypeNames, FormatAndParseRoundTrip) {
  std::set<std::string> names;
  for (QuantType t : all_quant_types()) {
    const std::string name(to_string(t));
    names.insert(name);
    EXPECT_EQ(parse_quant_type(name), t) << name;
  }
  EXPECT_EQ(names.size(), static_cast<std::size_t>(kQuantTypeCount));
  EXPECT_EQ(to_string(QuantType::q4_K), "q4_K");
  EXPECT_EQ(to_string(QuantType::iq4_xs), "iq4_xs");
  EXPECT_EQ(to_string(static_cast<QuantType>(99)), "");
}

TEST(QuantTypeNames, ParseIsCaseInsensitiveAndStrict) {
  EXPECT_EQ(parse_quant_type("Q4_K"), QuantType::q4_K);
  EXPECT_EQ(parse_quant_type("q2_k"), QuantType::q2_K);
  EXPECT_EQ(parse_quant_type("IQ4_NL"), QuantType::iq4_nl);
  EXPECT_EQ(parse_quant_type("q4"), std::nullopt);
  EXPECT_EQ(parse_quant_type("q4_K "), std::nullopt);
  EXPECT_EQ(parse_quant_type(""), std::nullopt);
  EXPECT_EQ(parse_quant_type("iq2_xxs").has_value(), kHasCodebookTypes);  // only built with the codebooks
  EXPECT_EQ(parse_quant_type("iq5_k"), std::nullopt);
}

TEST(QuantTypeNames, Lists) {
  // 19 weight types with the codebook i-quants (every type vLLM's moe_vec dispatches), else 12.
  EXPECT_EQ(all_quant_types().size(), kHasCodebookTypes ? 20u : 13u);
  EXPECT_EQ(weight_quant_types().size(), kHasCodebookTypes ? 19u : 12u);
  for (QuantType t : weight_quant_types()) EXPECT_TRUE(quant_traits(t).has_moe_vec) << to_string(t);
  EXPECT_FALSE(quant_traits(QuantType::q8_1).has_moe_vec);
  EXPECT_EQ(quant_type_list().substr(0, 12), "q4_0, q4_1, ");
}

}  // namespace
}  // namespace gridfuzz::formats::gguf
