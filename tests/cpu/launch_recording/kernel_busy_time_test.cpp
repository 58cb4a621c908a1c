// Kernel time from CUPTI's activity records: the busy time of a call's kernels (busy_ms), and
// what a KernelActivity does where CUPTI cannot record (this machine may have no GPU).
#include <gtest/gtest.h>

#include "gridfuzz/device/kernel_activity.hpp"

namespace gridfuzz::device {
namespace {

KernelInterval k(std::uint64_t start, std::uint64_t end) { return {"k", start, end}; }

TEST(KernelBusyTime, NoKernelsIsZero) { EXPECT_EQ(busy_ms({}), 0.0); }

TEST(KernelBusyTime, SerialKernelsAddUpWithoutTheGapsBetweenThem) {
  // q8_1 quantize 2 us, a 3 us gap of host work, the GEMV 20 us.
  EXPECT_DOUBLE_EQ(busy_ms({k(1'000, 3'000), k(6'000, 26'000)}), 0.022);
}

TEST(KernelBusyTime, OverlappingKernelsCountOnce) {
  EXPECT_DOUBLE_EQ(busy_ms({k(0, 10'000), k(5'000, 15'000)}), 0.015);
  // Nested in another kernel: adds nothing.
  EXPECT_DOUBLE_EQ(busy_ms({k(0, 10'000), k(2'000, 3'000)}), 0.010);
  // Touching end to start: one interval.
  EXPECT_DOUBLE_EQ(busy_ms({k(0, 1'000), k(1'000, 2'000)}), 0.002);
}

TEST(KernelBusyTime, OrderOfRecordsDoesNotMatter) {
  // CUPTI delivers records per buffer, not in start order.
  EXPECT_DOUBLE_EQ(busy_ms({k(50'000, 60'000), k(0, 10'000), k(5'000, 20'000)}), 0.030);
}

TEST(KernelBusyTime, RecordsWithoutADurationAreIgnored) {
  // CUPTI leaves start = end = 0 when it has no timestamp for a kernel.
  EXPECT_DOUBLE_EQ(busy_ms({k(0, 0), k(7'000, 9'000), k(9'500, 9'500)}), 0.002);
}

// Without a usable libcupti (or without a device, where enabling the activity fails) the
// constructor says why; a failed start leaves nothing behind, so the next one fails for the same
// reason rather than "another is live".
TEST(KernelActivity, AFailedStartSaysWhyAndLeavesNothingLive) {
  std::string first;
  try {
    KernelActivity activity;
    EXPECT_TRUE(activity.take().empty()) << "no kernel was launched";
    EXPECT_THROW(KernelActivity{}, KernelActivityUnavailable) << "a second one while the first lives";
    return;
  } catch (const KernelActivityUnavailable& e) {
    first = e.what();
  }
  EXPECT_EQ(first.rfind("kernel time: ", 0), 0u) << first;
  try {
    KernelActivity again;
    ADD_FAILURE() << "started after failing with: " << first;
  } catch (const KernelActivityUnavailable& e) {
    EXPECT_EQ(std::string(e.what()), first);
  }
}

}  // namespace
}  // namespace gridfuzz::device
