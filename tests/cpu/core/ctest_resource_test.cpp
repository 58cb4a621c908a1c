// The CTest GPU resource value is read into a device id, or rejected.
#include <gtest/gtest.h>

#include "../../support/ctest_gpu_resource.hpp"

using gridfuzz::testing::gpu_id_from_ctest_resource;

TEST(CtestGpuResource, ParsesTheIdAndRejectsGarbage) {
  EXPECT_EQ(gpu_id_from_ctest_resource("id:3,slots:1"), "3");
  EXPECT_EQ(gpu_id_from_ctest_resource("slots:1,id:12"), "12");
  EXPECT_FALSE(gpu_id_from_ctest_resource("slots:1").has_value());
  EXPECT_FALSE(gpu_id_from_ctest_resource("id:,slots:1").has_value());
  EXPECT_FALSE(gpu_id_from_ctest_resource("id:x1,slots:1").has_value());
}
