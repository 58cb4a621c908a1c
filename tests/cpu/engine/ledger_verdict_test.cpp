// The one verdict path (runner.cpp, conclude) with a finding of the ledger: a failure of the
// entry's kernel, variant and kind where its condition holds is expected-fail and names the
// finding; the same failure outside the condition, or of another kind, stays a failure. Judged
// here from outside (judge_without_result: a worker that died), the way a case that ran is.
#include <gtest/gtest.h>

#include "gridfuzz/app/session.hpp"
#include "gridfuzz/core/ledger.hpp"
#include "gridfuzz/device_limits.hpp"
#include "gridfuzz/engine/case_record.hpp"
#include "gridfuzz/engine/runner.hpp"
#include "gridfuzz/reporters/record_row.hpp"
#include "gridfuzz/reports/vocabulary.hpp"

namespace gridfuzz {
namespace {

const Ledger kLedger = Ledger::parse(
    "gguf.moe_vec fixed fail:fault test.md#finding-1 moe_vec.cuh:26 if tokens * top_k > 65535 && proj == \"gate_up\"\n");

CaseResult judged(const std::string& tokens, const std::string& proj, const Observed& seen) {
  const Kernel& k = *app::builtin_registry().find("gguf.moe_vec");
  Params p = Params::defaults(k.axes());
  p.set("tokens", tokens);
  p.set("top_k", "8");
  p.set("proj", proj);
  return judge_without_result(k, Case{k.name(), "fixed", p, 1}, *device_preset("sm_90"), kLedger, seen);
}

const Observed kDied{Observed::Kind::fault, "worker-signal 11 (Segmentation fault)"};

TEST(LedgerVerdict, AFailureWhereTheFindingsConditionHoldsIsExpectedAndNamed) {
  const CaseResult r = judged("8192", "gate_up", kDied);
  EXPECT_EQ(r.verdict, Verdict::of(Verdict::Kind::expected_fail));
  EXPECT_EQ(r.finding, "test.md#finding-1");
  // The row says so, and is a valid row.
  const reports::CsvRow row = reporters::to_row(make_record(r, RunContext{"run", "NVIDIA H200", "9.0", "13.0", "c", 0}));
  EXPECT_EQ(row.get("verdict"), "expected-fail");
  EXPECT_EQ(row.get("finding"), "test.md#finding-1");
  EXPECT_EQ(reports::check_row(row), std::nullopt);
}

TEST(LedgerVerdict, OutsideTheConditionOrOfAnotherKindItStaysAFailure) {
  for (const auto& [tokens, proj] : {std::pair{"8191", "gate_up"}, {"8192", "down"}}) {
    const CaseResult r = judged(tokens, proj, kDied);
    EXPECT_EQ(r.verdict, Verdict::failed(FailureKind::fault)) << tokens << " " << proj;
    EXPECT_EQ(r.finding, "");
  }
  const CaseResult hung = judged("8192", "gate_up", Observed{Observed::Kind::timeout, ""});
  EXPECT_EQ(hung.verdict, Verdict::failed(FailureKind::timeout));
  EXPECT_EQ(hung.finding, "");
}

// A finding names where a bug can show, not that every case there fails: a pass stays a pass.
TEST(LedgerVerdict, APassWhereTheConditionHoldsStaysAPass) {
  const CaseResult r = judged("8192", "gate_up", Observed{Observed::Kind::accept, ""});
  EXPECT_EQ(r.verdict, Verdict::of(Verdict::Kind::pass));
  EXPECT_EQ(r.finding, "");
}

}  // namespace
}  // namespace gridfuzz
