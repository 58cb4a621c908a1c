// The outcome vocabulary (harness/core/vocabulary.hpp): every value prints to the word the CSV
// has always held and parses back to itself, and parse refuses everything else.
#include "gridfuzz/core/vocabulary.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "gridfuzz/core/oracle_result.hpp"
#include "gridfuzz/core/verdict.hpp"

namespace gridfuzz {
namespace {

// Each kind's word, distinct from the others' and read back to the kind.
template <class E, std::size_t N, class Parse>
void expect_words_round_trip(const E (&kinds)[N], Parse parse, const char* what) {
  std::set<std::string> words;
  for (const E kind : kinds) {
    const std::string word(to_string(kind));
    EXPECT_NE(word, "?") << what << " " << static_cast<int>(kind) << " has no word";
    EXPECT_TRUE(words.insert(word).second) << what << ": '" << word << "' twice";
    const auto back = parse(word);
    ASSERT_TRUE(back.has_value()) << what << " '" << word << "'";
    EXPECT_EQ(*back, kind) << what << " '" << word << "'";
  }
}

TEST(CoreVocabulary, EveryKindsWordRoundTrips) {
  expect_words_round_trip(kPredictedKinds, parse_predicted_kind, "predicted");
  expect_words_round_trip(kIndexWrapKinds, parse_index_wrap_kind, "index_wrap");
  expect_words_round_trip(kObservedKinds, parse_observed_kind, "observed");
  expect_words_round_trip(kOracleKinds, [](std::string_view t) { return parse_oracle_kind(t); }, "oracle");
  expect_words_round_trip(kFailureKinds, parse_failure_kind, "failure");
  expect_words_round_trip(kVerdictKinds, parse_verdict_kind, "verdict");
  expect_words_round_trip(kRules, [](std::string_view t) { return parse_rule(std::string(t)); }, "rule");
  expect_words_round_trip(kIndexTypes, [](std::string_view t) { return parse_index_type(std::string(t)); },
                          "index type");
  expect_words_round_trip(kCaseTiers, parse_case_tier, "tier");
}

// The `tier` column's words: the boundary tiers as `sweep --tiers` names them, in the order a sweep
// runs them, then the random and shrinking phases. The CLI's `all` and `none` are no tier.
TEST(CoreVocabulary, TierWordsAreTheSchemasInSweepOrder) {
  std::vector<std::string> tiers;
  for (const CaseTier t : kCaseTiers) tiers.emplace_back(to_string(t));
  EXPECT_EQ(tiers, (std::vector<std::string>{"defaults", "profiles", "default-sizes", "profile-sizes", "speed",
                                             "random", "shrink"}));
  ASSERT_LE(std::size(kBoundaryTiers), std::size(kCaseTiers));
  for (std::size_t i = 0; i < std::size(kBoundaryTiers); ++i) EXPECT_EQ(kBoundaryTiers[i], kCaseTiers[i]) << i;
  EXPECT_EQ(kBoundaryTiers[std::size(kBoundaryTiers) - 1], CaseTier::speed);
  for (const char* text : {"", "all", "none", "Random", " random", "random ", "default_sizes", "shrink:1"})
    EXPECT_FALSE(parse_case_tier(text).has_value()) << "'" << text << "'";
  EXPECT_EQ(case_tier_forms(), "defaults | profiles | default-sizes | profile-sizes | speed | random | shrink");
}

// The CSV's bytes: these words are the schema (reports/SCHEMA.md), they never change.
TEST(CoreVocabulary, WordsAreTheSchemas) {
  std::vector<std::string> failures;
  for (const FailureKind k : kFailureKinds) failures.emplace_back(to_string(k));
  EXPECT_EQ(failures, (std::vector<std::string>{"refused", "host-error", "fault", "timeout", "oom", "mismatch",
                                                "unwritten", "out-of-bounds-write", "reference",
                                                "nondeterministic"}));
  std::vector<std::string> verdicts;
  for (const Verdict::Kind k : kVerdictKinds) verdicts.emplace_back(to_string(k));
  EXPECT_EQ(verdicts, (std::vector<std::string>{"pass", "expected-fail", "unexpected-pass", "model-mismatch", "fail",
                                                "skipped", "static"}));
  std::vector<std::string> observed;
  for (const Observed::Kind k : kObservedKinds) observed.emplace_back(to_string(k));
  EXPECT_EQ(observed, (std::vector<std::string>{"accept", "refuse", "fault", "timeout", "host-error", "oom", "skipped",
                                                "static"}));
  EXPECT_EQ(Verdict::failed(FailureKind::out_of_bounds_write).to_string(), "fail:out-of-bounds-write");
  EXPECT_EQ(Verdict::failed(FailureKind::nondeterministic).to_string(), "fail:nondeterministic");
  EXPECT_EQ(Verdict::parse("fail:nondeterministic"), Verdict::failed(FailureKind::nondeterministic));
  EXPECT_EQ(PredictedOutcome::refuse(Rule::smem_optin).to_string(), "refuse:smem.optin");
  EXPECT_EQ(PredictedOutcome::host_error("tokens*top_k overflows int32").to_string(),
            "host-error:tokens*top_k overflows int32");
  EXPECT_EQ(IndexWrap::wrap("arg:n").to_string(), "wrap:arg:n");
  EXPECT_EQ(IndexWrap::safe().to_string(), "safe");
  EXPECT_EQ((Observed{Observed::Kind::skipped, "over-budget"}).to_string(), "skipped:over-budget");
}

TEST(CoreVocabulary, EveryValueRoundTripsThroughItsText) {
  std::vector<PredictedOutcome> predicted{PredictedOutcome::accept(), PredictedOutcome::host_error("div-by-zero")};
  for (const Rule r : kRules) predicted.push_back(PredictedOutcome::refuse(r));
  for (const auto& p : predicted) EXPECT_EQ(PredictedOutcome::parse(p.to_string()), p) << p.to_string();

  for (const auto& w : {IndexWrap::safe(), IndexWrap::wrap("dst_offset"), IndexWrap::wrap("arg:n"),
                        IndexWrap::wrap("row * cols")})
    EXPECT_EQ(IndexWrap::parse(w.to_string()), w) << w.to_string();

  for (const Observed::Kind k : kObservedKinds) {
    const Observed o{k, has_reason(k) ? (k == Observed::Kind::refuse ? "CUDA_ERROR_INVALID_VALUE" : "signal 11 (x)") : ""};
    EXPECT_EQ(Observed::parse(o.to_string()), o) << o.to_string();
  }

  for (const Verdict::Kind k : kVerdictKinds) {
    if (k == Verdict::Kind::fail) continue;
    EXPECT_EQ(Verdict::parse(Verdict::of(k).to_string()), Verdict::of(k)) << to_string(k);
  }
  for (const FailureKind f : kFailureKinds)
    EXPECT_EQ(Verdict::parse(Verdict::failed(f).to_string()), Verdict::failed(f)) << to_string(f);
}

TEST(CoreVocabulary, OracleTextsReadAsTheirKind) {
  const auto of = [](OracleResult::Kind kind) {
    OracleResult r;
    r.kind = kind;
    return r;
  };
  const std::vector<OracleResult> results{
      OracleResult{},
      OracleResult{.kind = OracleResult::Kind::guard, .where = "out"},
      OracleResult{.kind = OracleResult::Kind::reference_fault, .where = "CUDA_ERROR_ILLEGAL_ADDRESS"},
      of(OracleResult::Kind::reference_refused),
      OracleResult{OracleResult::Kind::compared, "", true, 0, 0, 0, 256, 256},
      OracleResult{OracleResult::Kind::compared, "", false, 5, 0, 2, 3, 4},
      of(OracleResult::Kind::device_fault),
  };
  for (const OracleResult& r : results) EXPECT_EQ(parse_oracle_kind(r.to_string()), r.kind) << r.to_string();
  for (const char* text : {"", "mismatch:12", "exact", "splits:0", "Guard:x", " -"})
    EXPECT_FALSE(parse_oracle_kind(text).has_value()) << text;
  for (const char* text : {"", "-", "exact", "within-tol"}) EXPECT_FALSE(oracle_says_something(text)) << text;
  for (const char* text : {"split:exact:0 unwritten:0 cpu:256/256", "mismatch:12", "guard:out"})
    EXPECT_TRUE(oracle_says_something(text)) << text;
}

// The self-check's part of a compared oracle text: absent when it was not made, `self:same` when the
// second identical call gave the same outputs, `self:differ:<d>` when <d> elements differ. The
// kind of the text stays `split`.
TEST(CoreVocabulary, OracleTextCarriesTheSelfCheck) {
  OracleResult r{OracleResult::Kind::compared, "", true, 24, 0, 0, 250, 256};
  EXPECT_EQ(r.to_string(), "split:exact:24 unwritten:0 cpu:250/256");
  EXPECT_EQ(r.self_check_text(), "");
  r.self_differ = 0;
  EXPECT_EQ(r.to_string(), "split:exact:24 unwritten:0 cpu:250/256 self:same");
  EXPECT_EQ(r.self_check_text(), "self:same");
  r.self_differ = 24;
  EXPECT_EQ(r.to_string(), "split:exact:24 unwritten:0 cpu:250/256 self:differ:24");
  EXPECT_EQ(r.self_check_text(), "self:differ:24");
  r.self_differ = 0;
  r.reference_again = 3;  // the split reference made again: 3 elements differ from the outputs
  EXPECT_EQ(r.to_string(), "split:exact:24 unwritten:0 cpu:250/256 self:same ref-again:3");
  EXPECT_EQ(parse_oracle_kind(r.to_string()), OracleResult::Kind::compared);
  EXPECT_TRUE(oracle_says_something(r.to_string()));
}

TEST(CoreVocabulary, ParseRefusesWhatToStringNeverWrites) {
  for (const char* text : {"", "Accept", "accept ", "accepted", "refuse", "refuse:", "refuse:grid.w", "refuse:GRID.Z",
                           "refuse: grid.z", "host-error:", "host-error: x", "host-error:x ", "host-error:a\nb",
                           "host_error:x", "timeout", "refused:grid.z"})
    EXPECT_FALSE(PredictedOutcome::parse(text).has_value()) << text;
  for (const char* text : {"", "Safe", "wrap", "wrap:", "wrap: x", "wraps:x", "wrap:x\t"})
    EXPECT_FALSE(IndexWrap::parse(text).has_value()) << text;
  for (const char* text : {"", "accepted", "accept:x", "refuse:", "refuse:CUDA ERROR", "refuse:9_LIVES", "fault",
                           "fault:", "skipped", "skipped:", "timeout:10s", "OOM", "Static", "host-error:",
                           "fault:tab\there", "static:x"})
    EXPECT_FALSE(Observed::parse(text).has_value()) << text;
  for (const char* text : {"", "fail", "fail:", "fail:two words", "fail:a,b", "fail:mismatches", "fail:Fault",
                           "PASS", "passed", "expected_fail", "unexpected-pass ", "skipped:x", "fail :mismatch"})
    EXPECT_FALSE(Verdict::parse(text).has_value()) << text;
  for (const char* text : {"", "Refused", "out_of_bounds_write", "fail:fault"})
    EXPECT_FALSE(parse_failure_kind(text).has_value()) << text;
}

// read() says why, for the reports' messages (reports/vocabulary.hpp quotes the value around it).
TEST(CoreVocabulary, ReadSaysWhy) {
  EXPECT_EQ(PredictedOutcome::read("refuse:").problem, "empty launch rule");
  EXPECT_EQ(PredictedOutcome::read("refuse:grid.w").problem, "unknown launch rule 'grid.w'");
  EXPECT_EQ(PredictedOutcome::read("host-error: x").problem, "leading or trailing space after ':'");
  EXPECT_EQ(Observed::read("refuse:CUDA ERROR").problem, "the driver error name must be an identifier");
  EXPECT_EQ(Observed::read("fault:").problem, "empty after ':'");
  EXPECT_EQ(Observed::read("fault:a\tb").problem, "contains a control character");
  EXPECT_EQ(Verdict::read("fail:a,b").problem, "the failure kind must be a non-empty token of [A-Za-z0-9_.-]");
  EXPECT_EQ(Verdict::read("fail:mismatches").problem, "unknown failure kind 'mismatches'");
  EXPECT_EQ(IndexWrap::read("wrap:").problem, "empty after ':'");
  EXPECT_EQ(Verdict::read("passed").problem, "");
  EXPECT_TRUE(Verdict::read("pass").value.has_value());
}

// The typed accessors of the plugin API's text: what predict() writes reads back as the value.
TEST(CoreVocabulary, PredictionsTextAndValueAgree) {
  Prediction p;
  p.outcome = PredictedOutcome::accept().to_string();
  EXPECT_EQ(predicted_outcome(p), PredictedOutcome::accept());
  EXPECT_EQ(index_wrap_of(p), IndexWrap::safe());
  EXPECT_EQ(p.index_wrap(), "safe");
  p.indices.push_back({true, "fits", 1, 2});
  p.indices.push_back({false, "dst", 3, 2});
  p.indices.push_back({false, "later", 3, 2});
  EXPECT_EQ(index_wrap_of(p), IndexWrap::wrap("dst"));
  EXPECT_EQ(p.index_wrap(), "wrap:dst");
  p.outcome = "refuse:grid.z";
  EXPECT_EQ(predicted_outcome(p), PredictedOutcome::refuse(Rule::grid_z));
  p.outcome = "host-error:count <= 0";
  EXPECT_EQ(predicted_outcome(p), PredictedOutcome::host_error("count <= 0"));

  LaunchVerdict refused;
  refused.accepted = false;
  refused.rule = Rule::block_threads;
  EXPECT_EQ(predicted_outcome(refused), PredictedOutcome::refuse(Rule::block_threads));
  EXPECT_EQ(refused.outcome(), "refuse:block.threads");
  EXPECT_EQ(predicted_outcome(LaunchVerdict{}), PredictedOutcome::accept());
  EXPECT_EQ(LaunchVerdict{}.outcome(), "accept");
}

// The one agreement rule, on the values (limits' probes use it with a safe index).
TEST(CoreVocabulary, OutcomesAgreeByKind) {
  const Observed accept{Observed::Kind::accept, ""}, refuse{Observed::Kind::refuse, "CUDA_ERROR_INVALID_VALUE"},
      fault{Observed::Kind::fault, "CUDA_ERROR_ILLEGAL_ADDRESS"}, host{Observed::Kind::host_error, "x"};
  const auto safe = IndexWrap::safe(), wraps = IndexWrap::wrap("dst");
  EXPECT_TRUE(outcome_agrees(PredictedOutcome::accept(), safe, accept));
  EXPECT_TRUE(outcome_agrees(PredictedOutcome::accept(), safe, fault));
  EXPECT_FALSE(outcome_agrees(PredictedOutcome::accept(), safe, refuse));
  EXPECT_TRUE(outcome_agrees(PredictedOutcome::refuse(Rule::grid_z), safe, refuse));
  EXPECT_FALSE(outcome_agrees(PredictedOutcome::refuse(Rule::grid_z), safe, accept));
  EXPECT_FALSE(outcome_agrees(PredictedOutcome::refuse(Rule::grid_z), safe, fault));
  EXPECT_TRUE(outcome_agrees(PredictedOutcome::refuse(Rule::grid_z), wraps, fault));
  EXPECT_TRUE(outcome_agrees(PredictedOutcome::host_error("x"), safe, host));
  EXPECT_FALSE(outcome_agrees(PredictedOutcome::host_error("x"), safe, accept));
}

}  // namespace
}  // namespace gridfuzz
