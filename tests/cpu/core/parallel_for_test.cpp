// parallel_for (the plugin API's helper for cpu_reference, gridfuzz/parallel_for.hpp): every
// index runs exactly once for any n and thread count, the exception of the lowest failing index
// comes back on the calling thread after all threads joined, and the thread count follows
// GRIDFUZZ_CPU_THREADS.
#include "gridfuzz/parallel_for.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "scoped_env.hpp"

namespace gridfuzz {
namespace {

TEST(ParallelFor, RunsEveryIndexExactlyOnce) {
  for (std::size_t n : {0, 1, 2, 3, 7, 64, 1000}) {
    for (std::size_t threads : {0, 1, 2, 3, 4, 16, 2000}) {
      SCOPED_TRACE("n " + std::to_string(n) + ", threads " + std::to_string(threads));
      std::vector<std::atomic<int>> runs(n);
      parallel_for(n, threads, [&](std::size_t i) { runs.at(i).fetch_add(1); });
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(runs[i].load(), 1) << "index " << i;
    }
  }
}

TEST(ParallelFor, NothingToDoCallsNothing) {
  bool called = false;
  parallel_for(0, 4, [&](std::size_t) { called = true; });
  parallel_for(0, [&](std::size_t) { called = true; });
  EXPECT_FALSE(called);
}

TEST(ParallelFor, OneThreadOrOneIndexRunsInlineInOrder) {
  const std::thread::id caller = std::this_thread::get_id();
  for (const auto& [n, threads] : {std::pair<std::size_t, std::size_t>{1, 8}, {5, 1}, {5, 0}}) {
    std::vector<std::size_t> order;
    parallel_for(n, threads, [&](std::size_t i) {
      EXPECT_EQ(std::this_thread::get_id(), caller);
      order.push_back(i);
    });
    ASSERT_EQ(order.size(), n);
    for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(order[i], i);
  }
}

TEST(ParallelFor, UsesSeveralThreadsIncludingTheCaller) {
  // Each body waits until two distinct threads have entered (bounded, so a machine that runs
  // the threads one after the other still finishes).
  std::mutex m;
  std::set<std::thread::id> seen;
  std::atomic<int> entered{0};
  parallel_for(8, 4, [&](std::size_t) {
    {
      const std::lock_guard<std::mutex> lock(m);
      seen.insert(std::this_thread::get_id());
    }
    entered.fetch_add(1);
    for (int spin = 0; spin < 2000 && entered.load() < 2; ++spin)
      std::this_thread::sleep_for(std::chrono::microseconds(50));
  });
  EXPECT_GE(seen.size(), 2u);
  EXPECT_LE(seen.size(), 4u);
}

TEST(ParallelForWithWorkers, EachWorkerIsOneThreadAtATime) {
  // Per-worker scratch is safe: a worker number is never in two bodies at once, and every
  // number is below parallel_workers.
  for (const auto& [n, threads] : {std::pair<std::size_t, std::size_t>{100, 4}, {3, 8}, {50, 1}, {1, 4}}) {
    const std::size_t workers = parallel_workers(n, threads);
    EXPECT_EQ(workers, std::max<std::size_t>(1, std::min(n, threads)));
    std::vector<std::atomic<int>> busy(workers);
    std::vector<std::atomic<int>> runs(n);
    std::atomic<bool> overlap{false}, out_of_range{false};
    parallel_for_with_workers(n, threads, [&](std::size_t i, std::size_t worker) {
      if (worker >= workers) {
        out_of_range = true;
        return;
      }
      if (busy[worker].fetch_add(1) != 0) overlap = true;
      std::this_thread::sleep_for(std::chrono::microseconds(100));
      runs[i].fetch_add(1);
      busy[worker].fetch_sub(1);
    });
    EXPECT_FALSE(overlap);
    EXPECT_FALSE(out_of_range);
    for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(runs[i].load(), 1);
  }
  EXPECT_EQ(parallel_workers(0, 4), 1u);  // scratch for one, though nothing runs
}

TEST(ParallelFor, RethrowsTheLowestFailingIndexAfterJoining) {
  for (std::size_t threads : {1, 2, 4, 8}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    std::atomic<int> running{0}, finished{0};
    try {
      parallel_for(200, threads, [&](std::size_t i) {
        running.fetch_add(1);
        if (i == 37 || i == 38 || i == 150) throw std::runtime_error("index " + std::to_string(i));
        finished.fetch_add(1);
        running.fetch_sub(1);
      });
      FAIL() << "no exception";
    } catch (const std::runtime_error& e) {
      // The serial loop's first exception, whichever thread hit which failure first.
      EXPECT_STREQ(e.what(), "index 37");
    }
    // Joined: no body runs any more (the failing ones never decremented).
    const int after = finished.load();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    EXPECT_EQ(finished.load(), after);
    // Every index below the first failure ran.
    EXPECT_GE(after, 37);
  }
}

TEST(ParallelFor, AnyExceptionTypeComesBack) {
  EXPECT_THROW(parallel_for(10, 3, [](std::size_t i) {
                 if (i == 9) throw 42;
               }),
               int);
  EXPECT_THROW(parallel_for(1, 3, [](std::size_t) { throw std::logic_error("inline"); }), std::logic_error);
}

using gridfuzz::testing::ScopedEnv;

TEST(CpuReferenceThreads, TheEnvironmentVariableSetsIt) {
  const ScopedEnv env("GRIDFUZZ_CPU_THREADS", "3");
  EXPECT_EQ(cpu_reference_threads(), 3u);
  const ScopedEnv more("GRIDFUZZ_CPU_THREADS", "40");  // above the default's cap: the user's choice
  EXPECT_EQ(cpu_reference_threads(), 40u);
}

TEST(CpuReferenceThreads, DefaultIsTheCoresCappedAt16) {
  const ScopedEnv env("GRIDFUZZ_CPU_THREADS", nullptr);
  const std::size_t hw = std::max(1u, std::thread::hardware_concurrency());
  EXPECT_EQ(cpu_reference_threads(), std::min<std::size_t>(hw, kMaxDefaultCpuThreads));
}

TEST(CpuReferenceThreads, ABadValueIsIgnored) {
  std::size_t fallback = 0;
  {
    const ScopedEnv env("GRIDFUZZ_CPU_THREADS", nullptr);
    fallback = cpu_reference_threads();
  }
  for (const char* bad : {"", "0", "-2", "four", "4x", " 4", "99999999999999999999999"}) {
    const ScopedEnv env("GRIDFUZZ_CPU_THREADS", bad);
    EXPECT_EQ(cpu_reference_threads(), fallback) << "'" << bad << "'";
  }
}

}  // namespace
}  // namespace gridfuzz
