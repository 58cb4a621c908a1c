// CTest resource allocation for the GPU tests: the value CTest hands a test is read into a GPU
// id, mapped through an existing CUDA_VISIBLE_DEVICES, and the spec gridfuzz writes is one real
// CTest accepts: with 2 GPU slots and -j 6, tests run two at a time, never two on one GPU.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "../../support/ctest_gpu_resource.hpp"
#include "../../support/run_gridfuzz.hpp"
#include "gridfuzz/app/ctest_resource_spec.hpp"
#include "gridfuzz/device/device.hpp"

namespace fs = std::filesystem;
using gridfuzz::testing::cuda_visible_devices_for;
using gridfuzz::testing::gpu_id_from_ctest_resource;

TEST(CtestGpuResource, ParsesTheIdAndRejectsGarbage) {
  EXPECT_EQ(gpu_id_from_ctest_resource("id:3,slots:1"), "3");
  EXPECT_EQ(gpu_id_from_ctest_resource("slots:1,id:12"), "12");
  EXPECT_FALSE(gpu_id_from_ctest_resource("slots:1").has_value());
  EXPECT_FALSE(gpu_id_from_ctest_resource("id:,slots:1").has_value());
  EXPECT_FALSE(gpu_id_from_ctest_resource("id:x1,slots:1").has_value());
}

TEST(CtestGpuResource, MapsThroughAnExistingVisibleDeviceList) {
  EXPECT_EQ(cuda_visible_devices_for("1", nullptr), "1");
  EXPECT_EQ(cuda_visible_devices_for("1", ""), "1");
  EXPECT_EQ(cuda_visible_devices_for("0", "2,3"), "2");
  EXPECT_EQ(cuda_visible_devices_for("1", "2,3"), "3");
  EXPECT_EQ(cuda_visible_devices_for("1", "GPU-aaaa,GPU-bbbb"), "GPU-bbbb");
  EXPECT_FALSE(cuda_visible_devices_for("2", "2,3").has_value());
  EXPECT_FALSE(cuda_visible_devices_for("1", "2,,3").has_value());
  EXPECT_FALSE(cuda_visible_devices_for("99999999999999999999", "2,3").has_value());
}

namespace {
struct TempDir {
  fs::path path = fs::temp_directory_path() /
                  ("gridfuzz-ctest-" + std::to_string(getpid()) + "-" +
                   std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};
}  // namespace

TEST(CtestResourceSpec, RealCtestGivesEachConcurrentTestItsOwnGpu) {
  TempDir dir;
  std::ofstream(dir.path / "spec.json") << gridfuzz::app::ctest_resource_spec(2);
  // Six tests that each hold "their GPU" for 0.3 s: mkdir fails if another test holds the same one.
  std::ofstream tests(dir.path / "CTestTestfile.cmake");
  for (int i = 0; i < 6; ++i) {
    const std::string script =
        "id=$(echo \"$CTEST_RESOURCE_GROUP_0_GPUS\" | sed -n 's/.*id:\\([0-9]*\\).*/\\1/p'); "
        "[ -n \"$id\" ] || exit 3; mkdir held-$id || exit 4; echo $id >> used.txt; sleep 0.3; "
        "[ $(ls -d held-* | wc -l) -gt 1 ] && touch overlapped; rmdir held-$id";
    tests << "add_test(t" << i << " sh -c \"" << std::regex_replace(script, std::regex("\""), "\\\"") << "\")\n"
          << "set_tests_properties(t" << i << " PROPERTIES RESOURCE_GROUPS \"gpus:1\" WORKING_DIRECTORY \""
          << dir.path.string() << "\")\n";
  }
  tests.close();
  const std::string cmd = "cd " + dir.path.string() + " && " + CTEST_COMMAND +
                          " --resource-spec-file spec.json -j 6 --output-on-failure > ctest.log 2>&1";
  const auto t0 = std::chrono::steady_clock::now();
  const int status = std::system(cmd.c_str());
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::stringstream log;
  log << std::ifstream(dir.path / "ctest.log").rdbuf();
  ASSERT_EQ(status, 0) << log.str();
  std::map<std::string, int> per_gpu;
  std::ifstream used(dir.path / "used.txt");
  for (std::string id; used >> id;) ++per_gpu[id];
  EXPECT_EQ(per_gpu, (std::map<std::string, int>{{"0", 3}, {"1", 3}})) << log.str();
  EXPECT_TRUE(fs::exists(dir.path / "overlapped")) << "the two GPUs were never used at the same time (" << secs
                                                    << " s)";
}

TEST(CtestResourceSpec, DevicesCommandWritesTheSpecForTheGpusPresent) {
  TempDir dir;
  const auto path = dir.path / "spec.json";
  const auto r = gridfuzz::testing::run_gridfuzz("devices --ctest-resource-spec " + path.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::stringstream text;
  text << std::ifstream(path).rdbuf();
  EXPECT_EQ(text.str(), gridfuzz::app::ctest_resource_spec(gridfuzz::device::device_count()));
  const auto bad = gridfuzz::testing::run_gridfuzz("devices --ctest-resource-spec /nonexistent-dir/spec.json");
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("cannot write"), std::string::npos) << bad.output;
}
