// Axis predicates (`sweep --where`): their parse and its refusals, what each comparison selects,
// and the checks against the axes of the kernels they select from.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "gridfuzz/core/axis_predicate.hpp"

namespace gridfuzz {
namespace {

const std::vector<AxisSpec> kAxes = {Axis::integer("tokens", 1, 1 << 20).default_value(16),
                                     Axis::choice("quant", {"q4_0", "q8_0"})};

Params tokens(std::int64_t n, const std::string& quant = "q4_0") {
  Params p;
  p.set("tokens", std::to_string(n));
  p.set("quant", quant);
  return p;
}

std::string refusal(const std::string& text) {
  try {
    AxisFilter f;
    f.add(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(AxisPredicate, ParsesEachOperatorAndPrintsItBack) {
  for (const std::string text : {"tokens=8", "tokens!=8", "tokens<8", "tokens<=8", "tokens>8", "tokens>=8"}) {
    const AxisPredicate p = AxisPredicate::parse(text);
    EXPECT_EQ(p.axis, "tokens");
    EXPECT_EQ(p.value, "8");
    EXPECT_EQ(p.number, 8);
    EXPECT_EQ(p.to_string(), text);
  }
  EXPECT_EQ(AxisPredicate::parse(" tokens >= 8192 ").to_string(), "tokens>=8192");
  EXPECT_EQ(AxisPredicate::parse("quant=q4_0").number, std::nullopt);
  EXPECT_EQ(AxisPredicate::parse("tokens>=-3").number, -3);
}

TEST(AxisPredicate, EachComparisonSelectsWhatItSays) {
  const auto selected = [](const std::string& text) {
    AxisFilter f;
    f.add(text);
    std::vector<std::int64_t> out;
    for (std::int64_t n : {4, 8, 16}) if (f.matches(kAxes, tokens(n))) out.push_back(n);
    return out;
  };
  using V = std::vector<std::int64_t>;
  EXPECT_EQ(selected("tokens=8"), (V{8}));
  EXPECT_EQ(selected("tokens!=8"), (V{4, 16}));
  EXPECT_EQ(selected("tokens<8"), (V{4}));
  EXPECT_EQ(selected("tokens<=8"), (V{4, 8}));
  EXPECT_EQ(selected("tokens>8"), (V{16}));
  EXPECT_EQ(selected("tokens>=8"), (V{8, 16}));
}

TEST(AxisFilter, AllPredicatesMustHoldWhetherJoinedOrAddedAgain) {
  AxisFilter joined, repeated;
  joined.add("tokens>=8,quant=q8_0");
  repeated.add("tokens>=8");
  repeated.add("quant=q8_0");
  for (const AxisFilter* f : {&joined, &repeated}) {
    EXPECT_EQ(f->to_string(), "tokens>=8,quant=q8_0");
    EXPECT_TRUE(f->matches(kAxes, tokens(8, "q8_0")));
    EXPECT_FALSE(f->matches(kAxes, tokens(8, "q4_0")));
    EXPECT_FALSE(f->matches(kAxes, tokens(4, "q8_0")));
  }
  AxisFilter other;
  other.add("quant!=q4_0");
  EXPECT_TRUE(other.matches(kAxes, tokens(1, "q8_0")));
  EXPECT_FALSE(other.matches(kAxes, tokens(1, "q4_0")));
}

TEST(AxisFilter, AValueTheCaseDoesNotSetIsTheDefault) {
  AxisFilter f;
  f.add("tokens=16");
  EXPECT_TRUE(f.matches(kAxes, Params()));
}

TEST(AxisFilter, AKernelWithoutTheAxisHasNoMatchingCase) {
  AxisFilter f;
  f.add("experts>=8");
  EXPECT_FALSE(f.applies_to(kAxes));
  EXPECT_FALSE(f.matches(kAxes, tokens(8)));
  EXPECT_TRUE(AxisFilter().applies_to(kAxes));
  EXPECT_TRUE(AxisFilter().matches(kAxes, tokens(8)));
}

TEST(AxisFilter, RefusesWhatDoesNotParseSayingWhy) {
  EXPECT_NE(refusal("tokens").find("AXIS OP VALUE"), std::string::npos);
  EXPECT_NE(refusal(">=8").find("names no axis"), std::string::npos);
  EXPECT_NE(refusal("tokens>=").find("no value"), std::string::npos);
  EXPECT_NE(refusal("tokens==8").find("more than one operator"), std::string::npos);
  EXPECT_NE(refusal("1<tokens<8").find("more than one operator"), std::string::npos);
  EXPECT_NE(refusal("tokens!8").find("'!'"), std::string::npos);
  EXPECT_NE(refusal("my tokens=8").find("not one axis name"), std::string::npos);
  EXPECT_NE(refusal("tokens>=8,,quant=q4_0").find("empty predicate"), std::string::npos);
  EXPECT_NE(refusal("tokens>=8,").find("empty predicate"), std::string::npos);
  EXPECT_NE(refusal("").find("empty predicate"), std::string::npos);
  EXPECT_EQ(refusal("tokens>=8,quant=q4_0"), "");
}

TEST(AxisFilter, ProblemsAgainstTheSelectedKernelsAxes) {
  const std::vector<std::vector<AxisSpec>> kernels = {kAxes, {Axis::integer("rows", 1, 100)}};
  const auto problem = [&](const std::string& text) {
    AxisFilter f;
    f.add(text);
    return f.problem(kernels).value_or("");
  };
  EXPECT_EQ(problem("tokens>=8192"), "");
  EXPECT_EQ(problem("rows<5,quant=q8_0"), "");  // each axis of some kernel
  EXPECT_NE(problem("vocab>=8").find("no selected kernel has an axis 'vocab' (axes: quant, rows, tokens)"),
            std::string::npos);
  EXPECT_NE(problem("quant>q4_0").find("choice axis: it takes = and != only"), std::string::npos);
  EXPECT_NE(problem("tokens=many").find("'many' is not a 64-bit integer"), std::string::npos);
  EXPECT_NE(problem("tokens>99999999999999999999").find("not a 64-bit integer"), std::string::npos);
  EXPECT_NE(problem("quant=q9_9").find("no axis 'quant' has the choice 'q9_9' (choices: q4_0, q8_0)"),
            std::string::npos);
}

}  // namespace
}  // namespace gridfuzz
