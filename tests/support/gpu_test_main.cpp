// main() of every GPU test binary: binds the test to the GPU CTest assigned it (if any), then runs
// GoogleTest.
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>

#include "ctest_gpu_resource.hpp"

int main(int argc, char** argv) {
  if (const char* res = std::getenv("CTEST_RESOURCE_GROUP_0_GPUS")) {
    const auto id = gridfuzz::testing::gpu_id_from_ctest_resource(res);
    const auto visible = id ? gridfuzz::testing::cuda_visible_devices_for(*id, std::getenv("CUDA_VISIBLE_DEVICES"))
                            : std::nullopt;
    if (!visible) {
      std::cerr << "CTEST_RESOURCE_GROUP_0_GPUS='" << res << "' names no GPU of CUDA_VISIBLE_DEVICES='"
                << (std::getenv("CUDA_VISIBLE_DEVICES") ? std::getenv("CUDA_VISIBLE_DEVICES") : "") << "'\n";
      return 2;  // running on some other GPU could share one with another test
    }
    setenv("CUDA_VISIBLE_DEVICES", visible->c_str(), 1);  // before the first CUDA call
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
