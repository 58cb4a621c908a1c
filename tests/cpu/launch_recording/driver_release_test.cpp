// The driver's own version as /proc/driver/nvidia/version says it (device/driver_release.hpp):
// the text of real drivers, and what is no version.
#include "gridfuzz/device/driver_release.hpp"

#include <gtest/gtest.h>

namespace gridfuzz::device {
namespace {

TEST(DriverRelease, ReadsTheKernelModulesVersion) {
  // The H200 machines' file (driver 580.159.04) and an older driver's, whose module line differs.
  EXPECT_EQ(driver_release_of_proc_text("NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Thu Nov 13 "
                                        "19:40:13 UTC 2025\nGCC version:  gcc version 13.3.0 (Ubuntu 13.3.0)\n"),
            "580.159.04");
  EXPECT_EQ(driver_release_of_proc_text("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  535.104.05  "
                                        "Release Build  (dvs-builder@U16-T02-35-3)  Sat Aug 19 01:13:18 UTC 2023\n"),
            "535.104.05");
  EXPECT_EQ(driver_release_of_proc_text("NVRM version: NVIDIA UNIX aarch64 Kernel Module  570.86.15  Thu Jan\n"),
            "570.86.15");
}

TEST(DriverRelease, SaysNothingWhereThereIsNoVersion) {
  EXPECT_EQ(driver_release_of_proc_text(""), "");
  EXPECT_EQ(driver_release_of_proc_text("GCC version:  gcc version 13.3.0\n"), "");  // no module line
  EXPECT_EQ(driver_release_of_proc_text("NVRM version: NVIDIA UNIX x86_64 Kernel Module  580  Thu\n"), "");
  EXPECT_EQ(driver_release_of_proc_text("NVRM version: Kernel Module .580.1 580.1.\n"), "");
}

}  // namespace
}  // namespace gridfuzz::device
