// The self-check's decisions (harness/core/include/gridfuzz/core/self_check.hpp): which cases make
// the production call a second time, which passing cases the share picks (by case id, the same
// in every run), and the verdict two output comparisons give, through the one verdict path.
#include "gridfuzz/core/self_check.hpp"

#include <gtest/gtest.h>

#include <string>

#include "gridfuzz/core/verdict.hpp"

namespace gridfuzz {
namespace {

Case case_number(int i) {
  Case c{"selftest.race", "legacy", {}, 1};
  c.params.set("rows", std::to_string(i));
  c.params.set("cols", "256");
  return c;
}

Prediction accepted() {
  Prediction p;
  p.outcome = "accept";
  return p;
}

// The verdict of an accepted call whose oracle found `oracle_failure` and whose second call
// differed from the first in `self_differ` elements.
Verdict verdict_of(std::optional<FailureKind> oracle_failure, std::uint64_t self_differ, bool ledger = false) {
  const Observation obs{Observed{Observed::Kind::accept, ""}, after_self_check(oracle_failure, self_differ)};
  return decide_verdict(accepted(), obs, ledger);
}

TEST(SelfCheck, EveryFailedOutputCheckIsSelfCheckedAndAPassOnlyWhenSelected) {
  for (const FailureKind f : {FailureKind::mismatch, FailureKind::reference, FailureKind::unwritten}) {
    EXPECT_TRUE(wants_self_check(f, false)) << to_string(f);
    EXPECT_TRUE(wants_self_check(f, true)) << to_string(f);
  }
  // A changed guard zone, a fault: the call is not one to compare or to make again.
  for (const FailureKind f : {FailureKind::out_of_bounds_write, FailureKind::fault, FailureKind::refused})
    EXPECT_FALSE(wants_self_check(f, true)) << to_string(f);
  EXPECT_TRUE(wants_self_check(std::nullopt, true));
  EXPECT_FALSE(wants_self_check(std::nullopt, false));
}

TEST(SelfCheck, TwoCallsThatDifferAreNondeterministicNeverAPlainMismatch) {
  const Verdict race = Verdict::failed(FailureKind::nondeterministic);
  // The split reference disagreed and so did the second call: a race.
  EXPECT_EQ(verdict_of(FailureKind::mismatch, 24), race);
  // The CPU samples disagreed (the split reference agreed), and the calls differ.
  EXPECT_EQ(verdict_of(FailureKind::reference, 3), race);
  EXPECT_EQ(verdict_of(FailureKind::unwritten, 1), race);
  // Every check passed, but the selected case's second call gave other outputs.
  EXPECT_EQ(verdict_of(std::nullopt, 1), race);
  EXPECT_EQ(race.to_string(), "fail:nondeterministic");
  EXPECT_TRUE(race.fails_run());
}

TEST(SelfCheck, TwoCallsThatAgreeKeepTheOraclesVerdict) {
  EXPECT_EQ(verdict_of(FailureKind::mismatch, 0), Verdict::failed(FailureKind::mismatch));
  EXPECT_EQ(verdict_of(FailureKind::reference, 0), Verdict::failed(FailureKind::reference));
  EXPECT_EQ(verdict_of(std::nullopt, 0), Verdict::of(Verdict::Kind::pass));
  // The ledger's expectation is the ledger's: a listed failure stays expected-fail.
  EXPECT_EQ(verdict_of(FailureKind::mismatch, 5, true), Verdict::of(Verdict::Kind::expected_fail));
}

TEST(SelfCheck, TheShareIsChosenByCaseIdTheSameEveryTime) {
  constexpr int kCases = 20000;
  int at_5 = 0, at_2 = 0;
  for (int i = 0; i < kCases; ++i) {
    const Case c = case_number(i);
    const bool picked = selected_for_self_check(c, 0.05);
    EXPECT_EQ(picked, selected_for_self_check(case_number(i), 0.05)) << c.replay();  // a rerun picks the same
    EXPECT_FALSE(selected_for_self_check(c, 0)) << c.replay();
    EXPECT_TRUE(selected_for_self_check(c, 1)) << c.replay();
    const bool picked_at_2 = selected_for_self_check(c, 0.02);
    if (picked_at_2) EXPECT_TRUE(picked) << "a larger share keeps the smaller one's cases: " << c.replay();
    at_5 += picked;
    at_2 += picked_at_2;
  }
  // About share x N: 1000 +- 4.5 sigma (sigma ~ 31), 400 +- 4.5 sigma (sigma ~ 20).
  EXPECT_GT(at_5, 860);
  EXPECT_LT(at_5, 1140);
  EXPECT_GT(at_2, 310);
  EXPECT_LT(at_2, 490);
}

TEST(SelfCheck, ASeedOrAVariantIsAnotherCase) {
  // The choice follows the case id, so it changes with anything the replay string holds.
  int differ = 0;
  for (int i = 0; i < 2000; ++i) {
    Case a = case_number(i), b = case_number(i);
    b.seed = 2;
    differ += selected_for_self_check(a, 0.5) != selected_for_self_check(b, 0.5);
  }
  EXPECT_GT(differ, 800);
  EXPECT_LT(differ, 1200);
}

}  // namespace
// A mismatch the second call repeats: the split reference is made again, and a second reference
// that differs from the outputs in another number of elements than the first names the race.
TEST(SelfCheck, AMismatchTheSecondCallRepeatsAsksForTheReferenceAgain) {
  EXPECT_TRUE(wants_reference_again(FailureKind::mismatch, 0));
  EXPECT_FALSE(wants_reference_again(FailureKind::mismatch, 3)) << "the calls differ: already a race";
  EXPECT_FALSE(wants_reference_again(FailureKind::reference, 0)) << "the CPU samples are not the split reference";
  EXPECT_FALSE(wants_reference_again(std::nullopt, 0));
  EXPECT_EQ(after_self_check(FailureKind::mismatch, 0, 0, 16), FailureKind::nondeterministic)
      << "the second reference matches the outputs";
  EXPECT_EQ(after_self_check(FailureKind::mismatch, 0, 9, 16), FailureKind::nondeterministic);
  EXPECT_EQ(after_self_check(FailureKind::mismatch, 0, 16, 16), FailureKind::mismatch) << "wrong the same way again";
  EXPECT_EQ(after_self_check(FailureKind::mismatch, 0, std::nullopt, 16), FailureKind::mismatch) << "not made";
}

}  // namespace gridfuzz
