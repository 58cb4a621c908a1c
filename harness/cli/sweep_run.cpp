#include "sweep_run.hpp"

#include <rapidcheck.h>

#include <chrono>
#include <exception>
#include <optional>
#include <set>

#include "session.hpp"

namespace gridfuzz::cli {
namespace {

// rapidcheck's own reporting goes to stderr; the sweep reports through its rows and summary.
class QuietListener : public rc::detail::TestListener {
 public:
  void onTestCaseFinished(const rc::detail::CaseDescription&) override {}
  void onShrinkTried(const rc::detail::CaseDescription&, bool) override {}
  void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}
};

// Checks "no failure at random shapes" for one target. `verdict_of` runs (or looks up) a case and
// returns its verdict, or "" when it was not run (time budget): that counts as no failure.
rc::detail::TestResult check_random_shapes(const SweepTarget& t, const SweepSettings& s,
                                           const std::function<std::string(const Case&)>& verdict_of) {
  const Kernel& k = *t.kernel;
  rc::detail::TestMetadata metadata;
  metadata.id = k.name() + " " + t.variant + ": no failure at random shapes";
  metadata.description = metadata.id;
  rc::detail::TestParams params;
  params.seed = s.seed;
  params.maxSuccess = static_cast<int>(s.cases);
  params.maxSize = 100;
  QuietListener quiet;
  return rc::detail::checkProperty(
      rc::detail::toProperty([&] {
        const Params p = *random_params(k, t.boundaries);
        RC_PRE(!k.check(p).has_value());
        RC_ASSERT(!is_failure(verdict_of(Case{k.name(), t.variant, p, s.seed})));
      }),
      metadata, params, quiet, {});  // no reproduce map: RC_PARAMS is not read (nor echoed)
}

class SweepRun {
 public:
  SweepRun(const SweepSettings& s, CaseExecutor& executor, std::map<std::string, reports::CsvRow> done,
           const std::function<void(const reports::CsvRow&)>& on_new_row)
      : s_(s), executor_(executor), done_(std::move(done)), on_new_row_(on_new_row) {}

  SweepSummary run(const std::vector<SweepTarget>& targets) {
    // 1. Everything known before any result: boundary cases first (the most telling, so a time
    //    budget cuts random cases before them), then the random cases rapidcheck will draw.
    std::vector<Case> planned;
    for (const SweepTarget& t : targets)
      for (Case c : t.boundary_cases) {
        c.seed = s_.seed;
        planned.push_back(std::move(c));
      }
    if (s_.cases > 0)
      for (const SweepTarget& t : targets)
        check_random_shapes(t, s_, [&](const Case& c) {
          planned.push_back(c);
          return std::string();
        });

    // 2. One batch for every device; rows already done are counted, not run.
    std::vector<Case> batch;
    std::set<std::string> seen;
    for (const Case& c : planned) {
      if (!seen.insert(c.id()).second) continue;
      if (auto it = done_.find(c.id()); it != done_.end()) {
        reuse(it->second);
      } else {
        batch.push_back(c);
      }
    }
    executor_.run(batch, [&](const Case& c, const reports::CsvRow& row) { take(c, row); },
                  [&] { return out_of_time(); });
    for (const Case& c : batch)
      if (!done_.contains(c.id())) summary_.budget_hit = true;

    // 3. Each random property again, over the rows; a failure is shrunk here.
    if (s_.cases > 0)
      for (const SweepTarget& t : targets) confirm(t);
    return summary_;
  }

 private:
  bool out_of_time() const {
    return s_.time_budget_s > 0 &&
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count() > s_.time_budget_s;
  }

  void tally(const reports::CsvRow& row) {
    const std::string verdict = row.get("verdict");
    ++summary_.by_verdict[verdict];
    if (is_failure(verdict)) summary_.failures.push_back(verdict + "  " + row.get("replay"));
  }

  void take(const Case& c, const reports::CsvRow& row) {
    done_[c.id()] = row;
    counted_.insert(c.id());
    ++summary_.ran;
    tally(row);
    on_new_row_(row);
  }

  // A row finished before this sweep (resumed CSV), counted the first time the sweep meets it.
  void reuse(const reports::CsvRow& row) {
    if (!counted_.insert(row.get("case_id")).second) return;
    ++summary_.reused;
    tally(row);
  }

  void confirm(const SweepTarget& t) {
    std::optional<Case> last_failing;  // shrinking only moves to failing cases: the last is minimal
    // Rapidcheck would take an exception from the property for a failing case and shrink on: keep
    // it out of rapidcheck, run nothing more, and rethrow it once the check returns.
    std::exception_ptr run_error;
    const auto result = check_random_shapes(t, s_, [&](const Case& c) -> std::string {
      if (run_error) return "";
      auto it = done_.find(c.id());
      if (it == done_.end()) {
        if (out_of_time()) {
          summary_.budget_hit = true;
          return "";
        }
        try {
          executor_.run({c}, [&](const Case& ran, const reports::CsvRow& row) { take(ran, row); }, {});
        } catch (...) {
          run_error = std::current_exception();
          return "";
        }
        it = done_.find(c.id());
        if (it == done_.end()) return "";
      } else {
        reuse(it->second);  // a shrink step a resumed CSV already has
      }
      const std::string verdict = it->second.get("verdict");
      if (is_failure(verdict)) last_failing = c;
      return verdict;
    });
    if (run_error) std::rethrow_exception(run_error);
    const std::string target = t.kernel->name() + " " + t.variant;
    rc::detail::GaveUpResult gave_up;
    rc::detail::Error error;
    if (result.is<rc::detail::FailureResult>() && last_failing)
      summary_.minimal_failures.push_back(*last_failing);
    else if (result.match(gave_up))
      summary_.notes.push_back(target + ": rapidcheck gave up after " + std::to_string(gave_up.numSuccess) +
                               " random case(s): " + gave_up.description);
    else if (result.match(error))
      summary_.notes.push_back(target + ": rapidcheck error: " + error.description);
  }

  const SweepSettings& s_;
  CaseExecutor& executor_;
  std::map<std::string, reports::CsvRow> done_;
  const std::function<void(const reports::CsvRow&)>& on_new_row_;
  SweepSummary summary_;
  std::set<std::string> counted_;  // case ids in the summary: each case counts once
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace

SweepSummary run_sweep(const std::vector<SweepTarget>& targets, const SweepSettings& settings, CaseExecutor& executor,
                       std::map<std::string, reports::CsvRow> done,
                       const std::function<void(const reports::CsvRow&)>& on_new_row) {
  return SweepRun(settings, executor, std::move(done), on_new_row).run(targets);
}

}  // namespace gridfuzz::cli
