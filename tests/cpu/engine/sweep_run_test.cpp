// The sweep over several devices, simulated: the same cases, verdicts and minimal failing case as
// on one device, every case run once on some device, and the rows merge into one CSV that says
// which device ran each. The devices are threads taking cases from one queue; a row is the
// model's prediction, except for an injected bug (the fixed moe_vec "fails" at tokens >= 1000) so
// that the random property fails and rapidcheck shrinks it.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <set>
#include <thread>

#include "gridfuzz/device_limits.hpp"
#include "gridfuzz/reports/csv_reader.hpp"
#include "gridfuzz/engine/case_record.hpp"
#include "gridfuzz/reporters/csv_reporter.hpp"
#include "gridfuzz/app/session.hpp"
#include "gridfuzz/search/sweep_run.hpp"

namespace gridfuzz::app {
namespace {

bool injected_bug(const Case& c) {
  return c.kernel == "gguf.moe_vec" && c.variant == "fixed" && c.params.get_int("tokens") >= 1000;
}

class SimulatedDevices : public Executor {
 public:
  SimulatedDevices(int devices, DeviceLimits limits, std::chrono::microseconds slowest = std::chrono::microseconds(300))
      : devices_(devices), limits_(std::move(limits)), slowest_(slowest) {}

  void run(const std::vector<Case>& cases, const RecordSink& on_record, const std::function<bool()>& should_stop) override {
    std::atomic<std::size_t> next{0};
    std::mutex report;
    std::exception_ptr error;
    std::vector<std::thread> threads;
    for (int d = 0; d < devices_; ++d)
      threads.emplace_back([&, d] {
        for (std::size_t i = next++; i < cases.size(); i = next++) {
          if (should_stop && should_stop()) break;
          const Case& c = cases[i];
          ++running_;
          max_running_ = std::max(max_running_.load(), running_.load());
          // 0-300 us (or up to slowest_), by case: completion order differs from input order.
          std::this_thread::sleep_for(std::chrono::microseconds(std::hash<std::string>{}(c.id()) % slowest_.count()));
          RunContext ctx{"test-run", limits_.name, limits_.cc(), "", "", d};
          CaseRecord record = make_record(predict_case(*builtin_registry().find(c.kernel), c, limits_), ctx);
          if (injected_bug(c)) {
            record.observed = {Observed::Kind::accept, ""};
            record.verdict = Verdict::failed(FailureKind::mismatch);
          }
          --running_;
          std::lock_guard<std::mutex> lock(report);
          if (error) break;
          ++runs_[c.id()];
          try {
            on_record(c, record);
          } catch (...) {
            error = std::current_exception();
          }
        }
      });
    for (auto& t : threads) t.join();
    if (error) std::rethrow_exception(error);
  }

  std::map<std::string, int> runs_;  // case id -> times run
  std::atomic<int> running_{0}, max_running_{0};

 private:
  int devices_;
  DeviceLimits limits_;
  std::chrono::microseconds slowest_;
};

std::vector<SweepTarget> targets_of(const std::vector<std::string>& names, const DeviceLimits& limits) {
  std::vector<const Kernel*> kernels;
  for (const auto& n : names) kernels.push_back(builtin_registry().find(n).get());
  return plan_sweep(kernels, limits).targets;
}

struct Outcome {
  SweepSummary summary;
  std::map<std::string, CaseRecord> rows;  // case id -> record
};

Outcome sweep_on(SimulatedDevices& devices, const std::vector<SweepTarget>& targets, const SweepSettings& s,
                 const std::map<std::string, Verdict>& done = {}) {
  Outcome o;
  o.summary = run_sweep(targets, s, devices, done, [&](const CaseRecord& record) {
    EXPECT_TRUE(o.rows.emplace(record.the_case.id(), record).second) << "record reported twice: " << record.the_case.replay();
  });
  return o;
}

std::map<std::string, std::string> verdicts(const Outcome& o) {
  std::map<std::string, std::string> v;
  for (const auto& [id, record] : o.rows) v[id] = record.verdict.to_string();
  return v;
}

const DeviceLimits kH200 = *device_preset("sm_90");

TEST(SweepRun, SeveralDevicesGiveTheSameVerdictsAndMinimalCaseAsOne) {
  const auto targets = targets_of({"gguf.moe_vec", "affine.qmm"}, kH200);
  // 30 random cases per target: with 19 GGUF weight types (14 of them need cols a multiple of 256,
  // so more draws fail check()) the seed-3 stream of 20 cases no longer drew a fixed case with
  // >= 1000 tokens; 30 do. The test is about the mechanism, not this count.
  const SweepSettings s{30, 3, 0};
  SimulatedDevices one(1, kH200), three(3, kH200);
  const Outcome a = sweep_on(one, targets, s);
  const Outcome b = sweep_on(three, targets, s);

  EXPECT_GT(a.rows.size(), 50u);
  EXPECT_EQ(verdicts(a), verdicts(b));
  EXPECT_EQ(a.summary.by_verdict, b.summary.by_verdict);
  EXPECT_EQ(a.summary.ran, a.rows.size());
  EXPECT_GT(a.summary.by_verdict.at("static"), 0);

  // The injected bug is found and shrunk to the same minimal case: the smallest failing tokens.
  ASSERT_EQ(a.summary.minimal_failures.size(), 1u);
  ASSERT_EQ(b.summary.minimal_failures.size(), 1u);
  EXPECT_EQ(a.summary.minimal_failures[0].id(), b.summary.minimal_failures[0].id());
  EXPECT_EQ(a.summary.minimal_failures[0].params.get_int("tokens"), 1000);
  EXPECT_FALSE(b.summary.failures.empty());

  for (const auto& [id, n] : three.runs_) EXPECT_EQ(n, 1) << id << " ran " << n << " times";
  EXPECT_GE(three.max_running_.load(), 2) << "the simulated devices never ran cases at the same time";
  std::set<int> used;
  for (const auto& [id, record] : b.rows) used.insert(record.context.device_index.value_or(-1));
  EXPECT_EQ(used, (std::set<int>{0, 1, 2}));
}

TEST(SweepRun, MergedRowsMakeOneCsvWithTheDeviceOfEachRow) {
  const auto path = std::filesystem::temp_directory_path() / ("gridfuzz-merged-" + std::to_string(getpid()) + ".csv");
  std::filesystem::remove(path);
  const auto targets = targets_of({"gguf.mmvq", "gguf.quantize_q8_1"}, kH200);
  SimulatedDevices devices(4, kH200);
  SweepSummary summary;
  {
    reporters::CsvReporter csv(path);
    summary = run_sweep(targets, SweepSettings{10, 1, 0}, devices, {}, [&](const CaseRecord& record) { csv.report(record); });
  }
  const auto rows = reports::read_rows(path);
  std::filesystem::remove(path);
  ASSERT_EQ(rows.size(), summary.ran);
  std::set<std::string> ids;
  std::map<std::string, int> per_device;
  for (const auto& row : rows) {
    EXPECT_TRUE(ids.insert(row.get("case_id")).second) << "duplicate row " << row.get("replay");
    ++per_device[row.get("device_index")];
  }
  EXPECT_EQ(per_device.size(), 4u) << "every device ran some case";
  for (const auto& [d, n] : per_device) EXPECT_TRUE(d == "0" || d == "1" || d == "2" || d == "3") << d;
}

// Every record says which part of the sweep made it: a boundary case its tier, a random case
// `random`, a case tried while shrinking `shrink` (the executor's records have none: the sweep
// sets it); they finish in that order, and the CSV keeps each record's tier.
TEST(SweepRun, EachRecordCarriesTheTierThatMadeIt) {
  const auto targets = targets_of({"gguf.moe_vec"}, kH200);
  const SweepSettings s{30, 3, 0};
  std::map<std::string, CaseTier> boundary;  // case id (at the sweep's seed) -> its tier
  std::set<CaseTier> boundary_tiers;
  for (const SweepTarget& t : targets) {
    ASSERT_EQ(t.tiers.size(), t.boundary_cases.size());
    for (std::size_t i = 0; i < t.boundary_cases.size(); ++i) {
      Case c = t.boundary_cases[i];
      c.seed = s.seed;
      boundary.emplace(c.id(), boundary_case_tier(t.tiers[i]));
      boundary_tiers.insert(boundary_case_tier(t.tiers[i]));
    }
  }
  // The plan as made (no --tiers filter): the speed tier's copy of the start shape too.
  EXPECT_EQ(boundary_tiers, (std::set<CaseTier>{CaseTier::defaults, CaseTier::default_sizes, CaseTier::speed}));

  const auto path = std::filesystem::temp_directory_path() / ("gridfuzz-tiers-" + std::to_string(getpid()) + ".csv");
  std::filesystem::remove(path);
  SimulatedDevices devices(2, kH200);
  std::vector<CaseRecord> records;  // in the order they finished
  SweepSummary summary;
  {
    reporters::CsvReporter csv(path);
    summary = run_sweep(targets, s, devices, {}, [&](const CaseRecord& record) {
      records.push_back(record);
      csv.report(record);
    });
  }
  ASSERT_EQ(summary.minimal_failures.size(), 1u);
  const std::string minimal = summary.minimal_failures[0].id();

  // 0: a boundary tier, 1: random, 2: shrink; never back to an earlier part.
  const auto part = [](CaseTier t) { return t == CaseTier::shrink ? 2 : t == CaseTier::random ? 1 : 0; };
  std::map<CaseTier, std::size_t> per_tier;
  int last_part = 0;
  for (const CaseRecord& r : records) {
    ASSERT_TRUE(r.tier.has_value()) << r.the_case.replay();
    ++per_tier[*r.tier];
    EXPECT_GE(part(*r.tier), last_part) << r.the_case.replay();
    last_part = part(*r.tier);
    const auto it = boundary.find(r.the_case.id());
    if (it != boundary.end()) {
      EXPECT_EQ(*r.tier, it->second) << r.the_case.replay();
      continue;
    }
    EXPECT_TRUE(*r.tier == CaseTier::random || *r.tier == CaseTier::shrink) << r.the_case.replay();
    // Only the target whose random property failed is shrunk.
    if (*r.tier == CaseTier::shrink) {
      EXPECT_EQ(r.the_case.variant, "fixed") << r.the_case.replay();
    }
  }
  EXPECT_EQ(per_tier[CaseTier::defaults] + per_tier[CaseTier::default_sizes], boundary.size());
  EXPECT_GT(per_tier[CaseTier::random], 0u);
  EXPECT_GT(per_tier[CaseTier::shrink], 0u);
  const auto minimal_record = std::find_if(records.begin(), records.end(),
                                           [&](const CaseRecord& r) { return r.the_case.id() == minimal; });
  ASSERT_NE(minimal_record, records.end());
  EXPECT_EQ(minimal_record->tier, CaseTier::shrink) << "the minimal case is a step of the shrinking";

  const auto rows = reports::read_rows(path);
  std::filesystem::remove(path);
  ASSERT_EQ(rows.size(), records.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].get("case_id"), records[i].the_case.id());
    EXPECT_EQ(rows[i].tier(), records[i].tier);
    EXPECT_EQ(rows[i].get("tier"), to_string(*records[i].tier));
  }
}

TEST(SweepRun, FinishedRowsAreNotRunAgain) {
  const auto targets = targets_of({"gguf.moe_vec"}, kH200);
  const SweepSettings s{15, 5, 0};
  SimulatedDevices first(2, kH200);
  const Outcome full = sweep_on(first, targets, s);

  // Keep every other row, as if a sweep had been killed half way; the rest runs, once.
  std::map<std::string, Verdict> half;
  bool keep = true;
  for (const auto& [id, record] : full.rows) {
    if (keep) half.emplace(id, record.verdict);
    keep = !keep;
  }
  SimulatedDevices second(2, kH200);
  const Outcome resumed = sweep_on(second, targets, s, half);
  EXPECT_EQ(resumed.summary.reused, half.size());
  EXPECT_EQ(resumed.summary.ran + half.size(), full.rows.size());
  for (const auto& [id, verdict] : half) EXPECT_FALSE(second.runs_.contains(id)) << id << " ran again";
  EXPECT_EQ(resumed.summary.by_verdict, full.summary.by_verdict);
  EXPECT_EQ(resumed.summary.minimal_failures.size(), full.summary.minimal_failures.size());
}

// A row that cannot be written (disk full) ends the sweep with that error, also while rapidcheck
// shrinks (where an exception would otherwise count as one more failing case).
TEST(SweepRun, AnErrorWhileWritingReachesTheCaller) {
  const auto targets = targets_of({"gguf.moe_vec"}, kH200);
  const SweepSettings s{20, 3, 0};
  SimulatedDevices probe(1, kH200);
  const std::size_t planned = sweep_on(probe, targets, s).rows.size();
  for (const std::size_t fail_at : {std::size_t{5}, planned - 1}) {  // in the batch; while shrinking
    SimulatedDevices devices(2, kH200);
    std::size_t written = 0;
    EXPECT_THROW(run_sweep(targets, s, devices, {},
                           [&](const CaseRecord&) {
                             if (++written == fail_at) throw std::runtime_error("disk full");
                           }),
                 std::runtime_error)
        << "failing at row " << fail_at;
  }
}

TEST(SweepRun, ATimeBudgetStopsStartingCases) {
  const auto targets = targets_of({"gguf.moe_vec", "affine.qmm", "gguf.mmvq"}, kH200);
  SimulatedDevices all(2, kH200), cut(2, kH200);
  const Outcome whole = sweep_on(all, targets, SweepSettings{10, 1, 0});
  const Outcome part = sweep_on(cut, targets, SweepSettings{10, 1, 1e-3});
  EXPECT_FALSE(whole.summary.budget_hit);
  EXPECT_TRUE(part.summary.budget_hit);
  EXPECT_LT(part.rows.size(), whole.rows.size());
  for (const auto& [id, record] : part.rows) EXPECT_EQ(record.verdict, whole.rows.at(id).verdict);
}

// A budget spent before the first case (planning took it all: a sanitizer build on a loaded
// machine) still runs one case, the first boundary case of the plan, and then stops; with one
// device, exactly one.
TEST(SweepRun, ABudgetSpentBeforeTheFirstCaseStillRunsIt) {
  const auto targets = targets_of({"gguf.moe_vec", "affine.qmm"}, kH200);
  SimulatedDevices one(1, kH200);
  SweepSettings s{10, 1, 1.0};
  s.start = std::chrono::steady_clock::now() - std::chrono::seconds(10);
  const Outcome part = sweep_on(one, targets, s);
  EXPECT_TRUE(part.summary.budget_hit);
  ASSERT_EQ(part.rows.size(), 1u);
  const CaseRecord& row = part.rows.begin()->second;
  EXPECT_EQ(row.tier, CaseTier::defaults);
  EXPECT_EQ(row.the_case.params, targets.front().boundary_cases.front().params) << row.the_case.replay();
}

// Random cases under a budget too short for all of them: every target still gets its share (the
// time is divided among the targets left), instead of the first targets taking it all. The
// numbers leave room for a loaded machine: 4 targets, 4 s, cases of up to 200 ms, so a target's
// share (about 1 s) is far shorter than one chunk of its random cases (32 x 100 ms on two
// devices = 1.6 s): without the share stopping cases from starting, the last targets get none.
TEST(SweepRun, ATimeBudgetLeavesNoTargetWithoutRandomCases) {
  SweepPlan plan = plan_sweep({builtin_registry().find("gguf.quantize_q8_1").get(),
                               builtin_registry().find("gguf.mmvq").get()},
                              kH200);
  keep_boundary_tiers(plan, {"none"});
  ASSERT_EQ(plan.targets.size(), 4u);
  SimulatedDevices slow(2, kH200, std::chrono::microseconds(200000));
  const Outcome part = sweep_on(slow, plan.targets, SweepSettings{5000, 1, 4.0});
  EXPECT_TRUE(part.summary.budget_hit);
  std::map<std::string, int> rows_per_target;
  for (const auto& [id, record] : part.rows) ++rows_per_target[record.the_case.kernel + " " + record.the_case.variant];
  for (const SweepTarget& t : plan.targets)
    EXPECT_GT(rows_per_target[t.kernel->name() + " " + t.variant], 0) << t.kernel->name() << " " << t.variant;
}

}  // namespace
}  // namespace gridfuzz::app

namespace gridfuzz::app {
namespace {

std::size_t failing_rows(const Outcome& o) {
  std::size_t n = 0;
  for (const auto& [id, record] : o.rows) n += record.verdict.fails_run();
  return n;
}

// --maxfail: once N rows of this sweep fail, no case starts (one device: exactly N fail), and no
// failure is shrunk; every row that ran is still reported.
TEST(SweepRun, MaxFailuresStopsStartingCasesAndShrinksNothing) {
  const auto targets = targets_of({"gguf.moe_vec"}, kH200);
  SimulatedDevices all(1, kH200), cut(1, kH200);
  const Outcome whole = sweep_on(all, targets, SweepSettings{30, 3, 0});
  ASSERT_GT(failing_rows(whole), 2u) << "the injected bug must fail several rows";
  EXPECT_FALSE(whole.summary.max_failures_hit);
  SweepSettings s{30, 3, 0};
  s.max_failures = 2;
  const Outcome part = sweep_on(cut, targets, s);
  EXPECT_TRUE(part.summary.max_failures_hit);
  EXPECT_FALSE(part.summary.budget_hit);
  EXPECT_EQ(failing_rows(part), 2u);
  EXPECT_EQ(part.summary.failures.size(), 2u);
  EXPECT_LT(part.rows.size(), whole.rows.size());
  EXPECT_EQ(part.summary.ran, part.rows.size());
  EXPECT_TRUE(part.summary.minimal_failures.empty());
  for (const auto& [id, record] : part.rows) EXPECT_EQ(whole.rows.at(id).verdict, record.verdict) << id;
}

// --where: every boundary case (filtered in the plan) and every random case (redrawn) satisfies
// it; a kernel without the axis is left out with a note.
TEST(SweepRun, WhereSelectsEveryBoundaryAndRandomCase) {
  std::vector<const Kernel*> kernels{builtin_registry().find("gguf.moe_vec").get(),
                                     builtin_registry().find("gguf.quantize_q8_1").get()};
  SweepPlan plan = plan_sweep(kernels, kH200);
  AxisFilter where;
  where.add("tokens>=8192");
  keep_matching_cases(plan, where);
  ASSERT_FALSE(plan.targets.empty());
  for (const SweepTarget& t : plan.targets) {
    EXPECT_EQ(t.kernel->name(), "gguf.moe_vec");
    EXPECT_EQ(t.boundary_cases.size(), t.tiers.size());
  }
  const auto left_out = std::count_if(plan.notes.begin(), plan.notes.end(), [](const std::string& n) {
    return n.find("gguf.quantize_q8_1: not swept: it lacks an axis of --where") != std::string::npos;
  });
  EXPECT_EQ(left_out, 1);  // once, though it has several targets (variants)
  SweepSettings s{30, 3, 0};
  s.where = where;
  SimulatedDevices devices(2, kH200);
  const Outcome o = sweep_on(devices, plan.targets, s);
  std::size_t boundary = 0, random = 0;
  for (const auto& [id, record] : o.rows) {
    EXPECT_GE(record.the_case.params.get_int("tokens"), 8192) << record.the_case.replay();
    if (record.tier == CaseTier::random) ++random;
    else if (record.tier != CaseTier::shrink) ++boundary;
  }
  EXPECT_GT(boundary, 0u);
  EXPECT_GT(random, 0u);
}

}  // namespace
}  // namespace gridfuzz::app
