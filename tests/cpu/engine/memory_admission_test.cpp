// Cases share a GPU by their memory: admitted while they fit, in the order queued, and a case
// over the capacity (or asked to run alone) only when nothing else runs.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "gridfuzz/engine/memory_admission.hpp"

using gridfuzz::MemoryAdmission;
using namespace std::chrono_literals;

TEST(MemoryAdmission, CasesThatFitTogetherRunTogether) {
  MemoryAdmission a(100);
  auto g1 = a.admit(a.queue(), 40);
  auto g2 = a.admit(a.queue(), 60);
  EXPECT_EQ(a.in_use(), 100u);
  EXPECT_EQ(a.running(), 2);
  g1.release();
  EXPECT_EQ(a.in_use(), 60u);
  g2.release();
  EXPECT_EQ(a.running(), 0);
}

TEST(MemoryAdmission, ACaseThatDoesNotFitWaitsForMemory) {
  MemoryAdmission a(100);
  auto first = a.admit(a.queue(), 70);
  std::atomic<bool> admitted{false};
  std::thread t([&] {
    auto g = a.admit(a.queue(), 50);
    admitted = true;
  });
  std::this_thread::sleep_for(100ms);
  EXPECT_FALSE(admitted) << "70 + 50 > 100: it must wait";
  first.release();
  t.join();
  EXPECT_TRUE(admitted);
  EXPECT_EQ(a.in_use(), 0u);
}

TEST(MemoryAdmission, ACaseOverTheCapacityRunsAloneAndNothingJoinsIt) {
  MemoryAdmission a(100);
  auto small = a.admit(a.queue(), 10);
  std::atomic<int> stage{0};
  const auto big_ticket = a.queue();
  const auto later_ticket = a.queue();
  std::thread big([&] {
    auto g = a.admit(big_ticket, 500);
    EXPECT_EQ(a.running(), 1) << "over the capacity: alone";
    stage = 1;
    std::this_thread::sleep_for(100ms);
    stage = 2;
  });
  std::thread later([&] {
    auto g = a.admit(later_ticket, 1);
    EXPECT_EQ(stage.load(), 2) << "a case behind the big one starts only after it";
  });
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(stage.load(), 0) << "the big case waits while the small one runs";
  small.release();
  big.join();
  later.join();
}

TEST(MemoryAdmission, OrderIsKeptSoABigCaseIsNotOvertaken) {
  // A big case queued before a small one gets its turn first: the small one waits although it
  // would fit now (60 + 10 <= 100), and starts only once the big one holds its bytes.
  MemoryAdmission a(100);
  auto running = a.admit(a.queue(), 60);
  const auto big_ticket = a.queue();
  const auto small_ticket = a.queue();
  std::atomic<bool> small_admitted{false};
  std::uint64_t in_use_when_small_started = 0;
  std::thread big([&] {
    auto g = a.admit(big_ticket, 80);
    std::this_thread::sleep_for(100ms);  // held while the small one is admitted beside it
  });
  std::thread small([&] {
    auto g = a.admit(small_ticket, 10);
    in_use_when_small_started = a.in_use();
    small_admitted = true;
  });
  std::this_thread::sleep_for(100ms);
  EXPECT_FALSE(small_admitted) << "the small case must not pass the big one in line";
  running.release();
  big.join();
  small.join();
  EXPECT_EQ(in_use_when_small_started, 90u) << "admitted after the big case, beside it";
}

TEST(MemoryAdmission, ASkippedPlaceLetsTheNextMoveUp) {
  MemoryAdmission a(100);
  const auto skipped = a.queue();
  const auto next = a.queue();
  a.skip(skipped);
  auto g = a.admit(next, 10);  // would block for ever if the skipped place still held the line
  EXPECT_EQ(a.running(), 1);
}

TEST(MemoryAdmission, AloneWaitsForTheOthersToFinish) {
  MemoryAdmission a(100);
  auto other = a.admit(a.queue(), 1);
  std::atomic<bool> admitted{false};
  std::thread t([&] {
    auto g = a.admit(a.queue(), 1, /*alone=*/true);
    admitted = true;
  });
  std::this_thread::sleep_for(50ms);
  EXPECT_FALSE(admitted);
  other.release();
  t.join();
  EXPECT_TRUE(admitted);
}
