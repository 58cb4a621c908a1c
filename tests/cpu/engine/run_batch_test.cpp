// `--maxfail N` of run and replay (run_batch): once N records fail the run no case starts; the
// records of the cases that ran are all reported. A sequential executor judges each case with
// the model and fails the ones with an odd token count.
#include <gtest/gtest.h>

#include "gridfuzz/app/session.hpp"
#include "gridfuzz/device_limits.hpp"
#include "gridfuzz/engine/run_batch.hpp"

namespace gridfuzz {
namespace {

const DeviceLimits kH200 = *device_preset("sm_90");

class OddTokensFail final : public Executor {
 public:
  void run(const std::vector<Case>& cases, const RecordSink& on_record, const std::function<bool()>& should_stop) override {
    for (const Case& c : cases) {
      if (should_stop && should_stop()) return;
      ++started;
      CaseRecord record = make_record(predict_case(*app::builtin_registry().find(c.kernel), c, kH200), RunContext{});
      record.verdict = c.params.get_int("tokens") % 2 ? Verdict::failed(FailureKind::mismatch) : Verdict::of(Verdict::Kind::pass);
      on_record(c, record);
    }
  }
  std::size_t started = 0;
};

std::vector<Case> cases_with_tokens(std::initializer_list<int> tokens) {
  const Kernel& k = *app::builtin_registry().find("gguf.moe_vec");
  std::vector<Case> cases;
  for (int t : tokens) {
    Params p = Params::defaults(k.axes());
    p.set("tokens", std::to_string(t));
    cases.push_back({k.name(), "fixed", p, 1});
  }
  return cases;
}

TEST(RunBatch, StopsStartingCasesAtTheNthFailure) {
  const auto cases = cases_with_tokens({2, 3, 4, 5, 6, 7, 8});
  OddTokensFail executor;
  std::vector<std::string> reported;
  const BatchResult r = run_batch(executor, cases, [&](const Case& c, const CaseRecord&) { reported.push_back(c.id()); }, 2);
  EXPECT_EQ(r.failures, 2u);
  EXPECT_EQ(r.ran, 4u);  // 2 pass, 3 fails, 4 pass, 5 fails: then nothing starts
  EXPECT_TRUE(r.stopped);
  EXPECT_EQ(executor.started, 4u);
  EXPECT_EQ(reported.size(), 4u);
}

TEST(RunBatch, WithoutALimitOrBelowItEveryCaseRuns) {
  const auto cases = cases_with_tokens({2, 3, 4, 5});
  for (const std::size_t limit : {std::size_t{0}, std::size_t{3}}) {
    OddTokensFail executor;
    const BatchResult r = run_batch(executor, cases, [](const Case&, const CaseRecord&) {}, limit);
    EXPECT_EQ(r.ran, 4u) << limit;
    EXPECT_EQ(r.failures, 2u) << limit;
    EXPECT_FALSE(r.stopped) << limit;
  }
  // The limit reached by the last case: nothing was left to stop.
  OddTokensFail executor;
  const BatchResult r = run_batch(executor, cases, [](const Case&, const CaseRecord&) {}, 2);
  EXPECT_EQ(r.ran, 4u);
  EXPECT_FALSE(r.stopped);
}

}  // namespace
}  // namespace gridfuzz
