// The finding conditions of the known-failure ledger (core/ledger_condition.hpp): what they
// compute, where they hold and where not, and the errors of a bad one.
#include "gridfuzz/core/ledger_condition.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace gridfuzz {
namespace {

ConditionLookup shape(std::int64_t tokens, std::int64_t top_k, std::int64_t experts, const std::string& proj = "gate_up") {
  return case_condition_lookup({{"tokens", std::to_string(tokens)},
                                {"top_k", std::to_string(top_k)},
                                {"experts", std::to_string(experts)},
                                {"proj", proj}},
                               "accept", "fault:CUDA_ERROR_ILLEGAL_ADDRESS", "safe");
}

bool holds(const std::string& condition, const ConditionLookup& lookup) {
  return LedgerCondition::parse(condition).holds(lookup);
}

TEST(LedgerCondition, ComparesAxesOnBothSidesOfTheBoundary) {
  EXPECT_TRUE(holds("experts > 256", shape(1, 8, 257)));
  EXPECT_FALSE(holds("experts > 256", shape(1, 8, 256)));
  EXPECT_TRUE(holds("tokens >= 37450", shape(37450, 8, 256)));
  EXPECT_FALSE(holds("tokens >= 37450", shape(37449, 8, 256)));
  EXPECT_TRUE(holds("tokens*top_k > 65535", shape(8192, 8, 1)));
  EXPECT_FALSE(holds("tokens*top_k > 65535", shape(8191, 8, 1)));
  EXPECT_TRUE(holds("tokens <= 1 || experts != 3", shape(5, 1, 4)));
  EXPECT_FALSE(holds("!(tokens == 5) && experts == 4", shape(5, 1, 4)));
  EXPECT_TRUE(holds("((tokens + 1) * 2 - 2) / 2 == tokens", shape(9, 1, 1)));
}

TEST(LedgerCondition, FollowsTheUsualPrecedence) {
  EXPECT_TRUE(holds("2 + 3 * 4 == 14", shape(1, 1, 1)));
  EXPECT_TRUE(holds("2 ^ 3 ^ 2 == 512", shape(1, 1, 1)));  // right-associative
  EXPECT_TRUE(holds("20 - 5 - 5 == 10 && 64 / 4 / 2 == 8 && 17 % 5 == 2", shape(1, 1, 1)));
  EXPECT_TRUE(holds("1 == 2 || 3 == 3 && 4 == 4", shape(1, 1, 1)));  // && binds tighter
  EXPECT_FALSE(holds("(1 == 2 || 3 == 3) && 4 == 5", shape(1, 1, 1)));
}

// llama-cpp.md finding 3's rule: a gate/up q8_1 scratch of a whole number of 2 MiB.
TEST(LedgerCondition, TheMmqScratchRuleHoldsAtTheObservedFaultsOnly) {
  const std::string rule = "proj == \"gate_up\" && tokens * top_k * cols * 9 / 8 % 2^21 == 0";
  const auto at = [](std::int64_t tokens, std::int64_t cols, const std::string& proj) {
    return case_condition_lookup({{"tokens", std::to_string(tokens)}, {"top_k", "8"}, {"cols", std::to_string(cols)},
                                  {"proj", proj}},
                                 "accept", "fault:x", "safe");
  };
  EXPECT_TRUE(holds(rule, at(4096, 7168, "gate_up")));   // DeepSeek-V3: 252 MiB, faulted
  EXPECT_TRUE(holds(rule, at(512, 4096, "gate_up")));    // Qwen3-235B: 18 MiB, faulted
  EXPECT_FALSE(holds(rule, at(512, 7168, "gate_up")));   // DeepSeek-V3: 31.5 MiB, passed
  EXPECT_FALSE(holds(rule, at(4000, 7168, "gate_up")));  // the split reference's pieces
  EXPECT_FALSE(holds(rule, at(4096, 7168, "down")));
}

TEST(LedgerCondition, ComparesTextAndTheOutcomeColumns) {
  EXPECT_TRUE(holds("proj == \"gate_up\"", shape(1, 1, 1)));
  EXPECT_FALSE(holds("proj == \"down\"", shape(1, 1, 1)));
  EXPECT_TRUE(holds("proj != \"down\"", shape(1, 1, 1)));
  EXPECT_TRUE(holds("observed == \"fault:CUDA_ERROR_ILLEGAL_ADDRESS\" && predicted == \"accept\"", shape(1, 1, 1)));
  EXPECT_TRUE(holds("index_wrap == \"safe\"", shape(1, 1, 1)));
  // Text has no order and is no number: never true, never a guess.
  EXPECT_FALSE(holds("proj > \"a\"", shape(1, 1, 1)));
  EXPECT_FALSE(holds("proj == 1", shape(1, 1, 1)));
  EXPECT_FALSE(holds("proj + 1 > 0", shape(1, 1, 1)));
}

// Checked 64-bit arithmetic: an overflow, a division by zero or a name the case lacks leaves a
// comparison unknown, which no operator turns into true.
TEST(LedgerCondition, WhatCannotBeComputedExactlyIsFalse) {
  const auto big = shape(std::int64_t{1} << 40, std::int64_t{1} << 30, 1);
  EXPECT_FALSE(holds("tokens * top_k > 0", big));
  EXPECT_FALSE(holds("tokens * top_k <= 0", big));
  EXPECT_FALSE(holds("2^63 > 0", big));
  EXPECT_TRUE(holds("2^62 > 0", big));
  EXPECT_FALSE(holds("tokens / (experts - 1) > 0", big));
  EXPECT_FALSE(holds("tokens % 0 == 0", big));
  EXPECT_FALSE(holds("vocab > 0", big));
  EXPECT_FALSE(holds("vocab <= 0", big));
  EXPECT_FALSE(holds("!(vocab > 0)", big));
  EXPECT_FALSE(holds("!(tokens * top_k > 0) && experts == 1", big));
  EXPECT_TRUE(holds("vocab > 0 || experts == 1", big));  // decided by its known side
  EXPECT_TRUE(holds("!(vocab > 0 && experts == 2)", big));  // && known false by experts: its negation holds
}

// Against a 128-bit computation on random axis values: the checked result, or false past 64 bits.
RC_GTEST_PROP(LedgerCondition, ProductsAreExactOrFalse, ()) {
  const auto a = *rc::gen::inRange<std::int64_t>(0, std::int64_t{1} << 40);
  const auto b = *rc::gen::inRange<std::int64_t>(0, std::int64_t{1} << 40);
  const auto limit = *rc::gen::inRange<std::int64_t>(0, INT64_MAX);
  const ConditionLookup lookup = case_condition_lookup({{"a", std::to_string(a)}, {"b", std::to_string(b)},
                                                        {"limit", std::to_string(limit)}}, "", "", "");
  const __int128 exact = static_cast<__int128>(a) * b;
  const bool fits = exact <= INT64_MAX;
  RC_ASSERT(LedgerCondition::parse("a * b > limit").holds(lookup) == (fits && exact > limit));
}

TEST(LedgerCondition, NamesEveryNameOnce) {
  EXPECT_EQ(LedgerCondition::parse("tokens * top_k > tokens && proj == \"x\"").names(),
            (std::vector<std::string>{"tokens", "top_k", "proj"}));
}

TEST(LedgerCondition, ABadConditionSaysWhatAndWhere) {
  const auto message = [](const std::string& text) -> std::string {
    try {
      LedgerCondition::parse(text);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "accepted";
  };
  EXPECT_NE(message("experts").find("a comparison"), std::string::npos) << message("experts");
  EXPECT_NE(message("experts >").find("ends too early"), std::string::npos);
  EXPECT_NE(message("experts > 255 &&").find("ends too early"), std::string::npos);
  EXPECT_NE(message("(experts > 255").find("')' is missing"), std::string::npos);
  EXPECT_NE(message("experts >> 2").find("character 10"), std::string::npos) << message("experts >> 2");
  EXPECT_NE(message("experts > 99999999999999999999").find("64 bits"), std::string::npos);
  EXPECT_NE(message("proj == \"gate_up").find("not closed"), std::string::npos);
  EXPECT_NE(message("tokens > 1 && 2").find("comparison"), std::string::npos);
  EXPECT_NE(message("(tokens > 1) + 1 > 0").find("a value is needed"), std::string::npos);
  EXPECT_NE(message("tokens == 1 == 1").find("unexpected '='"), std::string::npos) << message("tokens == 1 == 1");
  EXPECT_NE(message("tokens > -1").find("not '-'"), std::string::npos) << message("tokens > -1");
  EXPECT_NE(message("").find("ends too early"), std::string::npos);
  EXPECT_NE(message(std::string(200, '(') + "1 == 1" + std::string(200, ')')).find("nesting"), std::string::npos);
  EXPECT_NE(message(std::string(200, '!') + "1 == 1").find("nesting"), std::string::npos);
}

}  // namespace
}  // namespace gridfuzz
