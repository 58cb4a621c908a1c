// One queue, several device workers (simulated by fake worker processes): every case runs once,
// on some device; a slow case on one device does not hold back the others; a worker killed once
// is restarted and its case is not lost.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <set>
#include <thread>

#include "gridfuzz/engine/worker_pool.hpp"

using gridfuzz::WorkerPool;
using gridfuzz::WorkerReply;

namespace {
WorkerPool make_pool(std::vector<int> devices, gridfuzz::WorkerPoolOptions options = {.timeout_s = 20}) {
  return WorkerPool(devices, [](int d) { return std::vector<std::string>{FAKE_WORKER, std::to_string(d)}; }, options);
}
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
std::string replay(const std::string& variant, int n) { return "fake/" + variant + "/1/n=" + std::to_string(n); }
}  // namespace

TEST(WorkerPool, EveryCaseRunsExactlyOnceAcrossDevices) {
  auto pool = make_pool({0, 1, 3});
  // A 1-second case first: while one device runs it, the others take the rest (30 quick cases
  // alone could all go to the device whose worker started first, on a busy machine).
  std::vector<std::string> cases{replay("slow", 0)};
  for (int i = 1; i < 30; ++i) cases.push_back(replay("reply", i));
  std::multiset<std::string> seen;
  std::set<int> devices;
  pool.run(cases, [&](const WorkerPool::Result& r) {
    ASSERT_EQ(r.reply.status, WorkerReply::Status::record);
    EXPECT_EQ(r.reply.record.the_case.replay(), cases[r.index]);
    EXPECT_EQ(r.reply.record.context.device_index, r.device);  // it ran where it says
    seen.insert(r.reply.record.the_case.replay());
    devices.insert(r.device);
  });
  EXPECT_EQ(seen, std::multiset<std::string>(cases.begin(), cases.end()));
  EXPECT_GE(devices.size(), 2u);
}

TEST(WorkerPool, ASlowCaseDoesNotStallTheOtherDevice) {
  auto pool = make_pool({0, 1});
  // One 1-second case first, then 20 quick ones: the other device finishes them meanwhile.
  std::vector<std::string> cases{replay("slow", 0)};
  for (int i = 1; i <= 20; ++i) cases.push_back(replay("reply", i));
  std::vector<std::size_t> order;
  const auto t0 = std::chrono::steady_clock::now();
  pool.run(cases, [&](const WorkerPool::Result& r) { order.push_back(r.index); });
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(order.size(), cases.size());
  EXPECT_EQ(order.back(), 0u) << "the slow case should finish last";
  EXPECT_LT(secs, 3.0);
}

TEST(WorkerPool, AWorkerKilledOnceIsRestartedAndItsCaseRuns) {
  const auto marker = std::filesystem::temp_directory_path() / ("gridfuzz-crash-once-" + std::to_string(getpid()));
  std::filesystem::remove(marker);
  auto pool = make_pool({0});
  std::vector<WorkerPool::Result> results;
  pool.run({"fake/crash-once/1/marker=" + marker.string(), replay("reply", 1)},
           [&](const WorkerPool::Result& r) { results.push_back(r); });
  std::filesystem::remove(marker);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].reply.status, WorkerReply::Status::record);
  EXPECT_EQ(results[0].attempts, 2);
  EXPECT_EQ(pool.restarts(), 1);
}

TEST(WorkerPool, NoCaseStartsAfterStopIsAsked) {
  auto pool = make_pool({0, 1});
  std::vector<std::string> cases;
  for (int i = 0; i < 40; ++i) cases.push_back(replay("reply", i));
  std::atomic<int> reported{0};
  std::multiset<std::size_t> seen;
  pool.run(
      cases,
      [&](const WorkerPool::Result& r) {
        seen.insert(r.index);
        ++reported;
      },
      [&] { return reported.load() >= 5; });
  // Each device may have had one case running when the fifth result came in.
  EXPECT_GE(seen.size(), 5u);
  EXPECT_LE(seen.size(), 5u + pool.devices().size());
  EXPECT_EQ(std::set<std::size_t>(seen.begin(), seen.end()).size(), seen.size()) << "a case reported twice";
}

TEST(WorkerPool, AnErrorInOneDevicesThreadReachesTheCaller) {
  auto pool = make_pool({0, 1});
  std::vector<std::string> cases;
  for (int i = 0; i < 40; ++i) cases.push_back(replay("reply", i));
  int reported = 0;
  EXPECT_THROW(pool.run(cases,
                        [&](const WorkerPool::Result&) {
                          if (++reported == 3) throw std::runtime_error("disk full");
                        }),
               std::runtime_error);
  EXPECT_EQ(reported, 3) << "no result is reported after the error";
}

TEST(WorkerPool, SeveralWorkersOnOneDeviceRunCasesSideBySideWhileTheirMemoryFits) {
  auto pool = make_pool({0}, {.timeout_s = 20, .workers_per_device = 2, .memory_capacity = 100});
  EXPECT_EQ(pool.workers(), 2);
  const std::vector<std::string> cases{replay("slow", 0), replay("slow", 1)};
  std::vector<std::size_t> seen;
  auto t0 = std::chrono::steady_clock::now();
  pool.run(cases, [&](const WorkerPool::Result& r) { seen.push_back(r.index); }, {}, [](std::size_t) { return gridfuzz::CaseNeed{50}; });
  EXPECT_EQ(seen.size(), 2u);
  EXPECT_LT(seconds_since(t0), 1.8) << "two 1-second cases that fit together run at once";

  // The same two cases when they do not fit together: one after the other.
  t0 = std::chrono::steady_clock::now();
  pool.run(cases, [](const WorkerPool::Result&) {}, {}, [](std::size_t) { return gridfuzz::CaseNeed{60}; });
  EXPECT_GE(seconds_since(t0), 2.0) << "60 + 60 > 100: the second waits for the first";
}

TEST(WorkerPool, ACaseOutOfMemoryBesideOthersRunsAgainAlone) {
  auto pool = make_pool({0}, {.timeout_s = 20, .workers_per_device = 2, .memory_capacity = 100});
  std::vector<WorkerPool::Result> results;
  pool.run({replay("oom", 0), replay("reply", 1)}, [&](const WorkerPool::Result& r) { results.push_back(r); }, {},
           [](std::size_t) { return gridfuzz::CaseNeed{10}; });
  ASSERT_EQ(results.size(), 2u);
  for (const auto& r : results) {
    EXPECT_EQ(r.ran_alone, r.index == 0);
    EXPECT_EQ(r.attempts, r.index == 0 ? 2 : 1);
  }
  EXPECT_EQ(pool.restarts(), 0);
}

TEST(WorkerPool, ACaseThatFailedBesideOthersRunsAgainAloneAndThatVerdictIsItsOwn) {
  auto pool = make_pool({0}, {.timeout_s = 20, .workers_per_device = 2, .memory_capacity = 100});
  const std::string marker = std::filesystem::temp_directory_path() / ("gf-fault-once-" + std::to_string(getpid()));
  std::filesystem::remove(marker);
  std::vector<WorkerPool::Result> results;
  pool.run({"fake/fault-once/1/marker=" + marker, replay("fault", 1), replay("reply", 2)},
           [&](const WorkerPool::Result& r) { results.push_back(r); }, {}, [](std::size_t) { return gridfuzz::CaseNeed{10}; });
  std::filesystem::remove(marker);
  ASSERT_EQ(results.size(), 3u);
  std::map<std::size_t, WorkerPool::Result> by_index;
  for (const auto& r : results) by_index[r.index] = r;
  EXPECT_TRUE(by_index[0].ran_alone);
  EXPECT_EQ(by_index[0].attempts, 2);
  EXPECT_EQ(by_index[0].reply.record.verdict.kind, gridfuzz::Verdict::Kind::pass) << "alone it passes: that is its verdict";
  EXPECT_TRUE(by_index[1].ran_alone);
  EXPECT_EQ(by_index[1].reply.record.verdict.kind, gridfuzz::Verdict::Kind::fail) << "a fault of its own stays";
  EXPECT_FALSE(by_index[2].ran_alone);
  EXPECT_EQ(by_index[2].attempts, 1);
}

TEST(WorkerPool, ACaseThatNeedsTheGpuAloneNeverRunsBesideAnotherAndIsNotRunTwice) {
  auto pool = make_pool({0}, {.timeout_s = 20, .workers_per_device = 2, .memory_capacity = 100});
  std::vector<WorkerPool::Result> results;
  // Two 1-second cases that fit together, but the first must be alone: one after the other; and a
  // failure of a case that ran alone is its verdict already.
  const auto t0 = std::chrono::steady_clock::now();
  pool.run({replay("slow", 0), replay("slow", 1), replay("fault", 2)},
           [&](const WorkerPool::Result& r) { results.push_back(r); }, {},
           [](std::size_t i) { return gridfuzz::CaseNeed{10, i != 1}; });
  EXPECT_GE(seconds_since(t0), 2.0) << "the case that must be alone did not share the GPU";
  ASSERT_EQ(results.size(), 3u);
  for (const auto& r : results) EXPECT_EQ(r.attempts, 1) << r.index;
}

TEST(WorkerPool, CasesThatMustBeAloneRunAsOneBatchSoTheGpuEmptiesOnce) {
  auto pool = make_pool({0}, {.timeout_s = 20, .workers_per_device = 2, .memory_capacity = 100});
  // Four 1-second cases that fit two at a time, with a quick case that must be alone between each
  // pair: taken in turn, every alone case would wait for the GPU to empty (about 4 s in all); set
  // aside, the slow ones run two by two and the alone ones after them, back to back on one worker.
  const std::vector<std::string> cases{replay("slow", 0), replay("reply", 1), replay("slow", 2), replay("reply", 3),
                                       replay("slow", 4), replay("reply", 5), replay("slow", 6)};
  const auto alone = [](std::size_t i) { return i % 2 == 1; };
  std::vector<WorkerPool::Result> results;
  std::map<std::size_t, double> ended;
  const auto t0 = std::chrono::steady_clock::now();
  pool.run(cases, [&](const WorkerPool::Result& r) {
    results.push_back(r);
    ended[r.index] = seconds_since(t0);
  }, {}, [&](std::size_t i) { return gridfuzz::CaseNeed{10, alone(i)}; });
  EXPECT_LT(seconds_since(t0), 3.0) << "the alone cases emptied the GPU one by one";
  ASSERT_EQ(results.size(), cases.size());
  std::set<std::string> alone_pids;
  for (const auto& r : results) {
    EXPECT_EQ(r.attempts, 1) << r.index;
    if (alone(r.index)) alone_pids.insert(r.reply.record.context.run_id);
  }
  EXPECT_EQ(alone_pids.size(), 1u) << "one batch, one worker";
  for (std::size_t slow : {0, 2, 4, 6})
    for (std::size_t quick : {1, 3, 5}) EXPECT_LT(ended[slow], ended[quick]) << "alone means nothing beside it";
}

TEST(WorkerPool, ASetAsideCaseWaitsNoLongerThanTheBatchWaitAllows) {
  auto pool = make_pool({0}, {.timeout_s = 20, .workers_per_device = 2, .memory_capacity = 100, .alone_wait_s = 0});
  // With no wait allowed, the alone case runs as soon as a worker next takes work: before the
  // last slow cases, which a worker takes after the first two finish.
  std::vector<std::size_t> order;
  pool.run({replay("slow", 0), replay("reply", 1), replay("slow", 2), replay("slow", 3), replay("slow", 4)},
           [&](const WorkerPool::Result& r) { order.push_back(r.index); }, {},
           [](std::size_t i) { return gridfuzz::CaseNeed{10, i == 1}; });
  ASSERT_EQ(order.size(), 5u);
  const auto at = [&](std::size_t i) { return std::find(order.begin(), order.end(), i) - order.begin(); };
  EXPECT_LT(at(1), at(4)) << "the alone case waited for the end";
}

TEST(WorkerPool, AFailureBesideOthersThatTheLedgerNamesWithTheCallMadeIsNotRunAgain) {
  auto pool = make_pool({0}, {.timeout_s = 20, .workers_per_device = 2, .memory_capacity = 100});
  std::vector<WorkerPool::Result> results;
  pool.run({replay("expected-finding", 0), replay("fault", 1)},
           [&](const WorkerPool::Result& r) { results.push_back(r); }, {},
           [](std::size_t) { return gridfuzz::CaseNeed{10, false}; });
  ASSERT_EQ(results.size(), 2u);
  for (const auto& r : results) {
    if (r.index == 0) {
      EXPECT_EQ(r.attempts, 1) << "wrong values of its own, named by a finding: its verdict";
      EXPECT_FALSE(r.ran_alone);
    } else {
      EXPECT_EQ(r.attempts, 2) << "a fault beside others may have come from them";
      EXPECT_TRUE(r.ran_alone);
    }
  }
}

TEST(WorkerPool, OneWorkerPerDeviceNeverRunsACaseTwiceForMemory) {
  auto pool = make_pool({0});
  std::vector<WorkerPool::Result> results;
  pool.run({replay("oom", 0)}, [&](const WorkerPool::Result& r) { results.push_back(r); });
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].attempts, 1) << "alone already: its out-of-memory is its verdict";
  EXPECT_FALSE(results[0].ran_alone);
}

TEST(WorkerPool, AProcessPerCaseGivesEveryCaseAFreshWorkerWithoutCountingRestarts) {
  auto pool = make_pool({0}, {.timeout_s = 20, .process_per_case = true});
  std::set<std::string> pids;
  std::vector<std::string> cases;
  for (int i = 0; i < 4; ++i) cases.push_back(replay("reply", i));
  pool.run(cases, [&](const WorkerPool::Result& r) { pids.insert(r.reply.record.context.run_id); });
  EXPECT_EQ(pids.size(), 4u) << "the fake worker's run_id is its pid";
  EXPECT_EQ(pool.restarts(), 0);
}

TEST(WorkerPool, StopAskedWhileACaseWaitsForMemoryStartsNothingMore) {
  auto pool = make_pool({0}, {.timeout_s = 20, .workers_per_device = 3, .memory_capacity = 100});
  std::vector<std::string> cases;
  for (int i = 0; i < 6; ++i) cases.push_back(replay("slow", i));
  std::atomic<int> reported{0};
  // Each case needs the whole GPU: the first runs (1 s), the next two wait for memory; the stop
  // comes while they wait.
  const auto stop_at = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
  pool.run(cases, [&](const WorkerPool::Result&) { ++reported; },
           [&] { return std::chrono::steady_clock::now() > stop_at; }, [](std::size_t) { return gridfuzz::CaseNeed{100}; });
  EXPECT_EQ(reported.load(), 1) << "the cases waiting for memory when the stop came never start";
}

// The fake worker's run_id is its pid and its driver the request's keep-reference flag.
TEST(WorkerPool, AReferenceGroupRunsBackToBackOnOneWorkerKeepingTheReferenceForAllButItsLast) {
  auto pool = make_pool({0, 1}, {.timeout_s = 20, .workers_per_device = 2, .memory_capacity = 100});
  // Cases 0-2 one group, 3 a case of its own, 4-5 another group, 6-7 a third whose second case
  // must run alone (so it is not taken with the first), 8-9 two groups of one each.
  const std::vector<std::uint64_t> group{7, 7, 7, 0, 9, 9, 11, 11, 13, 15};
  std::vector<std::string> cases;
  for (std::size_t i = 0; i < group.size(); ++i) cases.push_back(replay("reply", static_cast<int>(i)));
  std::map<std::string, std::vector<std::size_t>> ran_by;  // worker pid -> its cases, in the order run
  std::map<std::size_t, bool> kept;
  pool.run(cases, [&](const WorkerPool::Result& r) {
    ran_by[r.reply.record.context.run_id].push_back(r.index);
    kept[r.index] = r.reply.record.context.driver == "keep-reference";
  }, {}, [&](std::size_t i) { return gridfuzz::CaseNeed{10, i == 7, group[i]}; });
  ASSERT_EQ(kept.size(), cases.size());
  const auto back_to_back = [&](std::vector<std::size_t> members) {
    for (const auto& [pid, ran] : ran_by) {
      const auto first = std::find(ran.begin(), ran.end(), members.front());
      if (first == ran.end()) continue;
      return static_cast<std::size_t>(ran.end() - first) >= members.size() &&
             std::equal(members.begin(), members.end(), first);
    }
    return false;
  };
  EXPECT_TRUE(back_to_back({0, 1, 2}));
  EXPECT_TRUE(back_to_back({4, 5}));
  const std::map<std::size_t, bool> want{{0, true}, {1, true}, {2, false}, {3, false}, {4, true},
                                         {5, false}, {6, false}, {7, false}, {8, false}, {9, false}};
  EXPECT_EQ(kept, want);
}

TEST(WorkerPool, AGroupWhoseCaseRanAgainAloneRunsItsOtherCasesAloneOnTheSameWorker) {
  auto pool = make_pool({0}, {.timeout_s = 20, .workers_per_device = 2, .memory_capacity = 100});
  const std::string marker = std::filesystem::temp_directory_path() / ("gf-group-fault-once-" + std::to_string(getpid()));
  std::filesystem::remove(marker);
  std::vector<WorkerPool::Result> results;
  pool.run({"fake/fault-once/1/marker=" + marker, replay("reply", 1), replay("reply", 2)},
           [&](const WorkerPool::Result& r) { results.push_back(r); }, {},
           [](std::size_t) { return gridfuzz::CaseNeed{10, false, 5}; });
  std::filesystem::remove(marker);
  ASSERT_EQ(results.size(), 3u);
  std::set<std::string> pids;
  for (std::size_t k = 0; k < results.size(); ++k) {
    EXPECT_EQ(results[k].index, k) << "in order, one worker";
    pids.insert(results[k].reply.record.context.run_id);
  }
  EXPECT_EQ(pids.size(), 1u);
  EXPECT_TRUE(results[0].ran_alone);
  EXPECT_EQ(results[0].attempts, 2);
  EXPECT_EQ(results[0].reply.record.context.driver, "keep-reference") << "the run again asks to keep it too";
  EXPECT_EQ(results[1].attempts, 1);
  EXPECT_EQ(results[2].reply.record.context.driver, "");
}

TEST(WorkerPool, DeviceListParsing) {
  EXPECT_EQ(gridfuzz::parse_device_list("all", 3), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(gridfuzz::parse_device_list("2,0", 3), (std::vector<int>{2, 0}));
  EXPECT_THROW(gridfuzz::parse_device_list("all", 0), std::invalid_argument);
  EXPECT_THROW(gridfuzz::parse_device_list("3", 3), std::out_of_range);
  EXPECT_THROW(gridfuzz::parse_device_list("0,0", 3), std::invalid_argument);
  EXPECT_THROW(gridfuzz::parse_device_list("5,5", 0), std::invalid_argument) << "malformed before absent";
  EXPECT_THROW(gridfuzz::parse_device_list("0", 0), std::out_of_range);
  EXPECT_THROW(gridfuzz::parse_device_list("0,,1", 3), std::invalid_argument);
  EXPECT_THROW(gridfuzz::parse_device_list("-1", 3), std::invalid_argument);
}
