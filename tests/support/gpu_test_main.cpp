// main() of every GPU test binary: binds the test to the GPU CTest assigned it (if any), then runs
// GoogleTest.
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>

#include "ctest_gpu_resource.hpp"

int main(int argc, char** argv) {
  if (const char* res = std::getenv("CTEST_RESOURCE_GROUP_0_GPUS")) {
    if (auto id = gridfuzz::testing::gpu_id_from_ctest_resource(res)) {
      setenv("CUDA_VISIBLE_DEVICES", id->c_str(), 1);  // before the first CUDA call
    } else {
      std::cerr << "ignoring malformed CTEST_RESOURCE_GROUP_0_GPUS='" << res << "'\n";
    }
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
