#include "gridfuzz/search/sweep_run.hpp"

#include <rapidcheck.h>

#include <atomic>
#include <charconv>
#include <exception>
#include <limits>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "gridfuzz/core/verdict.hpp"

namespace gridfuzz {
namespace {

// rapidcheck's own reporting goes to stderr; the sweep reports through its rows and summary.
class QuietListener : public rc::detail::TestListener {
 public:
  void onTestCaseFinished(const rc::detail::CaseDescription&) override {}
  void onShrinkTried(const rc::detail::CaseDescription&, bool) override {}
  void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}
};

// Checks "no failure at random shapes" for one target. `verdict_of` runs (or looks up) a case and
// returns its verdict, or nothing when it was not run (time budget): that counts as no failure. Once
// `skip()` is true the remaining draws are skipped before anything is generated (each test case
// has its own random stream, so the cases drawn before are the same either way).
rc::detail::TestResult check_random_shapes(const SweepTarget& t, const SweepSettings& s,
                                           const std::function<std::optional<Verdict>(const Case&)>& verdict_of,
                                           const std::function<bool()>& skip = {}) {
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
        if (skip && skip()) return;
        const Params p = *random_params(k, t.boundaries);
        RC_PRE(!k.check(p).has_value());
        RC_PRE(s.device_bytes == 0 || case_device_bytes(k, p) <= s.device_bytes);
        RC_PRE(s.where.empty() || s.where.matches(k.axes(), p));
        const std::optional<Verdict> verdict = verdict_of(Case{k.name(), t.variant, p, s.seed});
        RC_ASSERT(!(verdict && verdict->fails_run()));
      }),
      metadata, params, quiet, {});  // no reproduce map: RC_PARAMS is not read (nor echoed)
}

// The 64 bits of a case id ("16 hex digits"); any other text (a foreign CSV) by its hash.
std::uint64_t id_key(const std::string& id) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(id.data(), id.data() + id.size(), v, 16);
  if (ec == std::errc() && end == id.data() + id.size() && id.size() == 16) return v;
  return std::hash<std::string>{}(id);
}

std::string target_key(const std::string& kernel, const std::string& variant) { return kernel + "\n" + variant; }

// A case without a recorded tier (a target built by hand) runs with the first.
int tier_of(const SweepTarget& t, std::size_t i) { return i < t.tiers.size() ? t.tiers[i] : kDefaultBoundaries; }

class SweepRun {
 public:
  SweepRun(const SweepSettings& s, Executor& executor, const std::map<std::string, Verdict>& done,
           const std::function<void(const CaseRecord&)>& on_new_record)
      : s_(s), executor_(executor), on_new_record_(on_new_record) {
    for (const auto& [id, verdict] : done) resumed_.emplace(id_key(id), verdict);
  }

  SweepSummary run(const std::vector<SweepTarget>& targets) {
    // 1. Boundary cases, tier by tier (sweep_plan.hpp, SweepTier); within a tier one case of each
    //    target in turn, so a time budget leaves no kernel out (or, SweepOrder::cost, every boundary
    //    tier cheapest first, then the speed tier); then 2. random cases as
    //    rapidcheck draws them, in chunks.
    if (s_.order == SweepOrder::cost)
      for (const CaseRef& ref : cost_order(targets, s_.measured_case_ms, s_.seed)) {
        Case c = targets[ref.target].boundary_cases[ref.index];
        c.seed = s_.seed;
        submit(c, boundary_case_tier(tier_of(targets[ref.target], ref.index)));
      }
    for (int tier = s_.order == SweepOrder::cost ? kSpeed : kDefaultBoundaries; tier <= kSpeed; ++tier) {
      std::vector<std::vector<std::size_t>> queues(targets.size());  // per target, this tier's cases
      for (std::size_t t = 0; t < targets.size(); ++t)
        for (std::size_t i = 0; i < targets[t].boundary_cases.size(); ++i)
          if (tier_of(targets[t], i) == tier) queues[t].push_back(i);
      for (std::size_t round = 0, left = 1; left > 0; ++round) {
        left = 0;
        for (std::size_t t = 0; t < targets.size(); ++t) {
          if (round >= queues[t].size()) continue;
          ++left;
          Case c = targets[t].boundary_cases[queues[t][round]];
          c.seed = s_.seed;
          submit(c, boundary_case_tier(tier));
        }
      }
    }
    flush();
    if (s_.cases > 0)
      for (std::size_t i = 0; i < targets.size(); ++i) {
        if (out_of_time() || failures_reached()) break;
        // Under a budget, this target's share of the time left; what it leaves goes to the next.
        const auto share_end = share_deadline(targets.size() - i);
        const auto over = [&] {
          return out_of_time() || failures_reached() || std::chrono::steady_clock::now() > share_end;
        };
        // Draw and run in small chunks, so the share's end stops the drawing soon after it comes;
        // once a case of this target has finished, no new one starts after the share's end.
        chunk_cap_ = s_.time_budget_s > 0 ? kBudgetedRandomChunk : s_.chunk;
        target_rows_ = 0;
        share_over_ = [&] { return target_rows_ > 0 && std::chrono::steady_clock::now() > share_end; };
        const auto drawn = check_random_shapes(
            targets[i], s_,
            [&](const Case& c) -> std::optional<Verdict> {
              submit(c, CaseTier::random);
              return std::nullopt;  // judged later, over the finished verdicts (step 3)
            },
            over);
        flush();
        chunk_cap_ = s_.chunk;
        share_over_ = nullptr;
        note_gave_up(targets[i], drawn);
      }
    flush();
    if (out_of_time()) summary_.budget_hit = true;
    if (failures_reached()) {
      summary_.max_failures_hit = true;
      return summary_;  // --maxfail: nothing more starts, not even a shrinking step
    }

    // 3. Each random property with a failing row again, over the verdicts; a failure is shrunk
    //    here. A target without one passes its property: nothing to check.
    if (s_.cases > 0)
      for (const SweepTarget& t : targets)
        if (failing_targets_.contains(target_key(t.kernel->name(), t.variant))) confirm(t);
    return summary_;
  }

 private:
  bool out_of_time() const {
    return s_.time_budget_s > 0 &&
           std::chrono::duration<double>(std::chrono::steady_clock::now() - s_.start).count() > s_.time_budget_s;
  }

  bool failures_reached() const { return s_.max_failures > 0 && new_failures_.load() >= s_.max_failures; }

  // An equal share of the time left among `targets_left` targets (no budget: never).
  std::chrono::steady_clock::time_point share_deadline(std::size_t targets_left) const {
    if (s_.time_budget_s <= 0) return std::chrono::steady_clock::time_point::max();
    const auto now = std::chrono::steady_clock::now();
    const auto end = s_.start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                    std::chrono::duration<double>(s_.time_budget_s));
    return end <= now ? now : now + (end - now) / static_cast<long>(targets_left);
  }

  // Queues a case the sweep has not met yet, made by `tier`; a resumed one is counted, not run. A
  // case met again (a random draw equal to a boundary case) keeps the tier that first ran it.
  void submit(const Case& c, CaseTier tier) {
    const std::uint64_t key = id_key(c.id());
    if (!met_.insert(key).second) return;
    if (const auto it = resumed_.find(key); it != resumed_.end()) {
      tally(c, it->second);
      ++summary_.reused;
      return;
    }
    pending_.push_back(c);
    pending_tiers_.emplace(key, tier);
    if (pending_.size() >= std::max<std::size_t>(std::min(s_.chunk, chunk_cap_), 1)) flush();
  }

  // Runs the queued cases; none is started once the time budget (or a target's share) is spent.
  void flush() {
    if (pending_.empty()) return;
    std::unordered_set<std::uint64_t> finished;
    executor_.run(pending_, [&](const Case& c, const CaseRecord& record) {
      const std::uint64_t key = id_key(c.id());
      finished.insert(key);
      take(c, record, pending_tiers_.at(key));
    }, [&] { return (rows_ > 0 && out_of_time()) || failures_reached() || (share_over_ && share_over_()); });
    for (const Case& c : pending_)
      if (!finished.contains(id_key(c.id()))) {
        (failures_reached() ? summary_.max_failures_hit : summary_.budget_hit) = true;
        met_.erase(id_key(c.id()));  // never ran: a later look-up must not take it for a pass
      }
    pending_.clear();
    pending_tiers_.clear();
  }

  void tally(const Case& c, const Verdict& verdict) {
    ++summary_.by_verdict[verdict.to_string()];
    if (!verdict.fails_run()) return;
    failing_.emplace(id_key(c.id()), verdict);
    failing_targets_.insert(target_key(c.kernel, c.variant));
    summary_.failures.push_back(verdict.to_string() + "  " + c.replay());
  }

  // A finished case: counted, and reported with the tier that made it (the executor's record
  // has none: it is the sweep's to say).
  void take(const Case& c, const CaseRecord& record, CaseTier tier) {
    met_.insert(id_key(c.id()));
    ++summary_.ran;
    ++rows_;
    ++target_rows_;
    if (record.verdict.fails_run()) ++new_failures_;
    tally(c, record.verdict);
    CaseRecord made_by = record;
    made_by.tier = tier;
    on_new_record_(made_by);
  }

  void note_gave_up(const SweepTarget& t, const rc::detail::TestResult& result) {
    rc::detail::GaveUpResult gave_up;
    if (result.match(gave_up) && !out_of_time())
      summary_.notes.push_back(t.kernel->name() + " " + t.variant + ": rapidcheck gave up after " +
                               std::to_string(gave_up.numSuccess) + " random case(s): " + gave_up.description);
  }

  // The verdict of a case the sweep has finished (run or resumed), or nothing.
  std::optional<Verdict> verdict_of(std::uint64_t key) const {
    if (const auto it = failing_.find(key); it != failing_.end()) return it->second;
    if (const auto it = resumed_.find(key); it != resumed_.end()) return it->second;
    if (met_.contains(key)) return Verdict::of(Verdict::Kind::pass);  // a finished row that does not fail the run
    return std::nullopt;
  }

  void confirm(const SweepTarget& t) {
    std::optional<Case> last_failing;  // shrinking only moves to failing cases: the last is minimal
    // Rapidcheck would take an exception from the property for a failing case and shrink on: keep
    // it out of rapidcheck, run nothing more, and rethrow it once the check returns.
    std::exception_ptr run_error;
    const auto result = check_random_shapes(t, s_, [&](const Case& c) -> std::optional<Verdict> {
      if (run_error) return std::nullopt;
      const std::uint64_t key = id_key(c.id());
      std::optional<Verdict> verdict = verdict_of(key);
      if (!verdict) {
        if (out_of_time()) {
          summary_.budget_hit = true;
          return std::nullopt;
        }
        try {
          // Until the first failure rapidcheck draws the random phase's cases again (one a budget
          // left unstarted runs here); from it on, every case is a step of the shrinking.
          const CaseTier tier = last_failing ? CaseTier::shrink : CaseTier::random;
          executor_.run({c}, [&](const Case& ran, const CaseRecord& record) { take(ran, record, tier); }, {});
        } catch (...) {
          run_error = std::current_exception();
          return std::nullopt;
        }
        verdict = verdict_of(key);
        if (!verdict) return std::nullopt;
      } else if (met_.insert(key).second) {
        // A shrink step a resumed CSV already has, met for the first time.
        ++summary_.reused;
        tally(c, *verdict);
      }
      if (verdict->fails_run()) last_failing = c;
      return verdict;
    });
    if (run_error) std::rethrow_exception(run_error);
    rc::detail::Error error;
    if (result.is<rc::detail::FailureResult>() && last_failing)
      summary_.minimal_failures.push_back(*last_failing);
    else if (result.match(error))
      summary_.notes.push_back(t.kernel->name() + " " + t.variant + ": rapidcheck error: " + error.description);
  }

  const SweepSettings& s_;
  Executor& executor_;
  const std::function<void(const CaseRecord&)>& on_new_record_;
  SweepSummary summary_;
  std::vector<Case> pending_;                               // at most one chunk
  std::unordered_map<std::uint64_t, CaseTier> pending_tiers_;  // the tier of each, by case id
  // Random cases under a budget go to the executor in chunks this small (a share may end after
  // at most one chunk more); otherwise in chunks of s_.chunk.
  static constexpr std::size_t kBudgetedRandomChunk = 32;
  std::size_t chunk_cap_ = std::numeric_limits<std::size_t>::max();
  // While a target has its share of a budget: rows it finished (the executor's workers read it),
  // and whether its share is spent.
  std::atomic<std::size_t> target_rows_{0};
  std::function<bool()> share_over_;
  std::atomic<std::size_t> rows_{0};                        // rows this sweep ran (the executor's workers read it)
  std::atomic<std::size_t> new_failures_{0};                // failing rows this sweep ran (--maxfail)
  std::unordered_set<std::uint64_t> met_;                   // every case counted in the summary, once
  std::unordered_map<std::uint64_t, Verdict> resumed_;  // verdicts of a resumed CSV
  std::unordered_map<std::uint64_t, Verdict> failing_;  // verdicts of the failing rows
  std::set<std::string> failing_targets_;                   // kernel x variant with a failing row
};

}  // namespace

SweepSummary run_sweep(const std::vector<SweepTarget>& targets, const SweepSettings& settings, Executor& executor,
                       const std::map<std::string, Verdict>& done,
                       const std::function<void(const CaseRecord&)>& on_new_record) {
  SweepRun run(settings, executor, done, on_new_record);
  return run.run(targets);
}

}  // namespace gridfuzz
