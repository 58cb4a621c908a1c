// Pure engine pieces: params, replay strings, the ledger, verdicts and case expansion.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "gridfuzz/app/case_expansion.hpp"
#include "gridfuzz/core/case.hpp"
#include "gridfuzz/core/ledger.hpp"
#include "gridfuzz/core/verdict.hpp"
#include "gridfuzz/app/parse.hpp"

using namespace gridfuzz;

namespace {

const std::vector<AxisSpec> kAxes = {{"tokens", "", "1", {}, 1, 1000000},
                                     {"top_k", "", "8", {}, 1, 64},
                                     {"quant", "", "q4_0", {"q4_0", "q8_0"}, 0, 0}};

Prediction prediction(const std::string& outcome, bool wrap = false) {
  Prediction p;
  p.outcome = outcome;
  if (wrap) p.indices.push_back({false, "dst", 1, 1});
  return p;
}

}  // namespace

RC_GTEST_PROP(CaseProperty, ReplayStringRoundTrips, (std::uint64_t seed, std::uint32_t tokens, std::uint8_t top_k)) {
  Case c{"gguf.moe_vec", "legacy", Params(), seed};
  c.params.set("tokens", std::to_string(tokens));
  c.params.set("top_k", std::to_string(top_k));
  const Case back = Case::parse_replay(c.replay());
  RC_ASSERT(back == c);
  RC_ASSERT(back.id() == c.id());
}

TEST(Case, IdIsStableAndDistinguishesCases) {
  Case a{"k", "legacy", Params::parse("tokens=8192,top_k=8"), 1};
  Case b = a;
  b.seed = 2;
  EXPECT_EQ(a.id(), Case::parse_replay(a.replay()).id());
  EXPECT_NE(a.id(), b.id());
  EXPECT_EQ(a.id().size(), 16u);
  EXPECT_THROW(Case::parse_replay("k/legacy/x/tokens=1"), std::invalid_argument);
  EXPECT_THROW(Case::parse_replay("k/legacy"), std::invalid_argument);
  EXPECT_THROW(Case::parse_replay("k/legacy/1/tokens"), std::invalid_argument);
}

TEST(Params, ValidateNamesTheProblem) {
  Params p = Params::defaults(kAxes);
  EXPECT_FALSE(Params::validate(p, kAxes).has_value());
  p.set("tokens", "0");
  EXPECT_NE(Params::validate(p, kAxes)->find("outside [1, 1000000]"), std::string::npos);
  p.set("tokens", "12x");
  EXPECT_NE(Params::validate(p, kAxes)->find("not a whole number"), std::string::npos);
  p = Params::defaults(kAxes);
  p.set("quant", "q9_9");
  EXPECT_NE(Params::validate(p, kAxes)->find("not one of"), std::string::npos);
  p = Params::defaults(kAxes);
  p.set("bogus", "1");
  EXPECT_NE(Params::validate(p, kAxes)->find("unknown axis 'bogus'"), std::string::npos);
}

TEST(Ledger, ParsesEntriesAndRejectsBadLines) {
  const Ledger l = Ledger::parse("# comment\n\nk legacy refused   # trailing\nk wrapvar wrap\nk bad always\n");
  ASSERT_EQ(l.entries().size(), 3u);
  EXPECT_THROW(Ledger::parse("k legacy sometimes"), std::invalid_argument);
  EXPECT_THROW(Ledger::parse("k legacy"), std::invalid_argument);
  EXPECT_THROW(Ledger::parse("k legacy refused extra"), std::invalid_argument);
}

// Issue 34: a byte-order mark became part of the first entry's kernel name, so that entry never
// matched (silently, with the checked-in ledger); a NUL or an escape sequence in a name made an
// entry no kernel can match, and reached the terminal raw.
TEST(Ledger, AByteOrderMarkIsSkippedAndNamesNoKernelCanHaveAreRefused) {
  const Ledger l = Ledger::parse("\xEF\xBB\xBFk legacy refused\nk fixed wrap\n");
  ASSERT_EQ(l.entries().size(), 2u);
  EXPECT_EQ(l.entries()[0].kernel, "k");
  EXPECT_TRUE(l.expects_failure("k", "legacy", prediction("refuse:grid.z")));
  // A mark anywhere else is no kernel name; nor is a NUL, an ESC, a non-ASCII byte.
  for (const std::string& bad : {std::string("k legacy refused\n\xEF\xBB\xBFk fixed wrap\n"),
                                std::string("k\0x legacy refused\n", 19), std::string("k\x1b[31m legacy refused\n"),
                                std::string("k legacy\xC3\xA9 refused\n"), std::string("k/x legacy refused\n")}) {
    try {
      Ledger::parse(bad, "the-ledger");
      ADD_FAILURE() << "accepted: " << bad;
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()).rfind("the-ledger:", 0), 0u) << e.what();
    }
  }
  // Comments may hold any text.
  EXPECT_EQ(Ledger::parse("k legacy refused # caf\xC3\xA9 \x01\n").entries().size(), 1u);
}

TEST(Ledger, ExpectsFailureOnlyWhereItsConditionHolds) {
  const Ledger l = Ledger::parse("k legacy refused\nk wrapvar wrap\nk bad always\n");
  EXPECT_TRUE(l.expects_failure("k", "legacy", prediction("refuse:grid.z")));
  EXPECT_TRUE(l.expects_failure("k", "legacy", prediction("host-error:div-by-zero")));
  EXPECT_FALSE(l.expects_failure("k", "legacy", prediction("accept")));
  EXPECT_FALSE(l.expects_failure("k", "fixed", prediction("refuse:grid.z")));
  EXPECT_TRUE(l.expects_failure("k", "wrapvar", prediction("accept", true)));
  EXPECT_FALSE(l.expects_failure("k", "wrapvar", prediction("accept", false)));
  EXPECT_TRUE(l.expects_failure("k", "bad", prediction("accept")));
  EXPECT_FALSE(l.expects_failure("other", "legacy", prediction("refuse:grid.z")));
}

TEST(Verdict, EveryCombination) {
  const auto accept = prediction("accept");
  const auto refuse = prediction("refuse:grid.z");
  EXPECT_EQ(decide_verdict(accept, {*Observed::parse("accept"), std::nullopt}, false).to_string(), "pass");
  EXPECT_EQ(decide_verdict(accept, {*Observed::parse("accept"), FailureKind::mismatch}, false).to_string(), "fail:mismatch");
  EXPECT_EQ(decide_verdict(accept, {*Observed::parse("accept"), FailureKind::unwritten}, true).to_string(), "expected-fail");
  EXPECT_EQ(decide_verdict(accept, {*Observed::parse("accept"), std::nullopt}, true).to_string(), "unexpected-pass");
  EXPECT_EQ(decide_verdict(refuse, {*Observed::parse("refuse:CUDA_ERROR_INVALID_VALUE"), std::nullopt}, true).to_string(), "expected-fail");
  EXPECT_EQ(decide_verdict(refuse, {*Observed::parse("refuse:CUDA_ERROR_INVALID_VALUE"), std::nullopt}, false).to_string(), "fail:refused");
  EXPECT_EQ(decide_verdict(refuse, {*Observed::parse("accept"), std::nullopt}, true).to_string(), "model-mismatch");
  EXPECT_EQ(decide_verdict(accept, {*Observed::parse("refuse:CUDA_ERROR_INVALID_VALUE"), std::nullopt}, false).to_string(), "model-mismatch");
  EXPECT_EQ(decide_verdict(accept, {*Observed::parse("fault:CUDA_ERROR_ILLEGAL_ADDRESS"), std::nullopt}, false).to_string(), "fail:fault");
  EXPECT_EQ(decide_verdict(accept, {*Observed::parse("timeout"), std::nullopt}, true).to_string(), "expected-fail");
  EXPECT_EQ(decide_verdict(prediction("host-error:div-by-zero"), {*Observed::parse("host-error:div-by-zero"), std::nullopt}, true).to_string(), "expected-fail");
  EXPECT_EQ(decide_verdict(accept, {*Observed::parse("skipped:over-budget"), std::nullopt}, false).to_string(), "skipped");
  EXPECT_EQ(decide_verdict(accept, {*Observed::parse("static"), std::nullopt}, false).to_string(), "static");
  EXPECT_EQ(decide_verdict(accept, {*Observed::parse("oom"), std::nullopt}, false).to_string(), "fail:oom");
  // A wrapped index in an earlier launch may fault before the predicted refusal is reached.
  EXPECT_EQ(decide_verdict(prediction("refuse:grid.y", true), {*Observed::parse("fault:CUDA_ERROR_ILLEGAL_ADDRESS"), std::nullopt}, true).to_string(),
            "expected-fail");
  EXPECT_EQ(decide_verdict(refuse, {*Observed::parse("fault:CUDA_ERROR_ILLEGAL_ADDRESS"), std::nullopt}, true).to_string(), "model-mismatch");
}

TEST(CaseExpansion, ProductZipListsAndRanges) {
  using namespace gridfuzz::app;
  auto cases = expand_cases(kAxes, {parse_set("tokens=8190:8194", true), parse_set("top_k=2,8", true)}, false);
  EXPECT_EQ(cases.size(), 10u);
  EXPECT_EQ(cases.front().get("quant"), "q4_0");  // unset axes take their defaults
  cases = expand_cases(kAxes, {parse_set("tokens=1,2,3", true), parse_set("top_k=4,5,6", true)}, true);
  ASSERT_EQ(cases.size(), 3u);
  EXPECT_EQ(cases[2].get("tokens"), "3");
  EXPECT_EQ(cases[2].get("top_k"), "6");
  cases = expand_cases(kAxes, {parse_set("tokens=10:20:5", true)}, false);
  ASSERT_EQ(cases.size(), 3u);
  EXPECT_EQ(cases[2].get("tokens"), "20");
}

TEST(CaseExpansion, ErrorsNameTheProblem) {
  using namespace gridfuzz::app;
  EXPECT_THROW(parse_set("tokens", true), UsageError);
  EXPECT_THROW(parse_set("tokens=", true), UsageError);
  EXPECT_THROW(parse_set("tokens=5:1", true), UsageError);
  EXPECT_THROW(parse_set("tokens=1:5:0", true), UsageError);
  EXPECT_THROW(parse_set("tokens=1,,2", true), UsageError);
  EXPECT_THROW(parse_set("tokens=1,2", false), UsageError);
  EXPECT_THROW(expand_cases(kAxes, {parse_set("tokens=0", true)}, false), UsageError);
  EXPECT_THROW(expand_cases(kAxes, {parse_set("tokens=1,2", true), parse_set("top_k=1,2,3", true)}, true), UsageError);
  EXPECT_THROW(expand_cases(kAxes, {parse_set("tokens=1", true), parse_set("tokens=2", true)}, false), UsageError);
  EXPECT_THROW(expand_cases(kAxes, {parse_set("tokens=1:99999", true), parse_set("top_k=1:60", true)}, false, 1000),
               UsageError);
}

// The verdict vocabulary round-trips through the typed value, and exactly fail:*, model-mismatch
// and unexpected-pass fail a run (the one place that says so: Verdict::fails_run).
TEST(Verdict, ParsesWhatItWritesAndKnowsWhichFailTheRun) {
  for (const char* text : {"pass", "expected-fail", "unexpected-pass", "model-mismatch", "skipped", "static",
                           "fail:fault", "fail:reference", "fail:host-error"}) {
    const auto v = Verdict::parse(text);
    ASSERT_TRUE(v.has_value()) << text;
    EXPECT_EQ(v->to_string(), text);
  }
  for (const char* text : {"", "fail:", "passed", "Pass", "expected_fail"}) EXPECT_FALSE(Verdict::parse(text)) << text;
  for (const char* text : {"fail:fault", "fail:mismatch", "model-mismatch", "unexpected-pass"})
    EXPECT_TRUE(verdict_fails_run(text)) << text;
  for (const char* text : {"pass", "expected-fail", "skipped", "static", ""}) EXPECT_FALSE(verdict_fails_run(text)) << text;
}
