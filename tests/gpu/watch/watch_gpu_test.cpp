// `gridfuzz watch -- watch_near_limits` on a GPU: every planted launch near a limit is found with
// its extent (grid.y 61440, grid.z 65535, a block of 1024 threads, shared memory 1 KiB under the
// opt-in limit), the refused launches (grid.y 65536, a zero grid) are named and ranked first,
// and the unrelated kernel the program's late check blames is not refused. GRIDFUZZ_BINARY and
// GRIDFUZZ_NEAR_LIMITS may be overridden from the environment (prebuilt binaries).
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>

#include "gridfuzz/device/device.hpp"
#include "gridfuzz/device/driver_api.hpp"
#include "run_gridfuzz.hpp"
#include "temp_dir.hpp"

namespace gridfuzz::testing {
namespace {

std::string from_env(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

// The CSV row of `kernel` (its second field), or "".
std::string row_of(const std::string& csv, const std::string& kernel) {
  std::istringstream in(csv);
  for (std::string line; std::getline(in, line);) {
    const std::size_t comma = line.find(',');
    if (comma != std::string::npos && line.compare(comma + 1, kernel.size() + 1, kernel + ",") == 0) return line;
  }
  return "";
}

TEST(WatchGpu, FindsEveryPlantedLaunchAndNamesTheRefusedOnes) {
  if (device::device_count() == 0) {
    std::string why;
    device::driver_available(&why);
    GTEST_SKIP() << "no CUDA device: " << why;
  }
  TempDir dir;
  const std::string gf = from_env("GRIDFUZZ_BINARY", GRIDFUZZ_BINARY);
  const std::string program = from_env("GRIDFUZZ_NEAR_LIMITS", GRIDFUZZ_NEAR_LIMITS);
  const CommandResult r = run_shell(gf + " watch --csv " + dir / "watch.csv" + " -- " + program);
  std::cout << r.output;
  ASSERT_EQ(r.exit_code, 0) << "the program's own status: every launch as planted";
  EXPECT_NE(r.output.find("near_limits: every launch as planted"), std::string::npos);
  const std::string csv = slurp(dir / "watch.csv");
  std::cout << csv;

  const std::string y = row_of(csv, "near_grid_y");
  EXPECT_NE(y.find(",1,0,0,0,1,61440,1,32,1,1,32,"), std::string::npos) << y;  // 1 launch, none refused
  EXPECT_NE(y.find(",grid.y,0.937514,"), std::string::npos) << y;
  const std::string z = row_of(csv, "near_grid_z");
  EXPECT_NE(z.find(",grid.z,1,"), std::string::npos) << z;
  const std::string b = row_of(csv, "full_block");
  EXPECT_NE(b.find(",4,1,1,1024,1,1,1024,"), std::string::npos) << b;
  const std::string s = row_of(csv, "near_smem");
  EXPECT_NE(s.find(",smem.optin,"), std::string::npos) << s;
  EXPECT_NE(s.find(",smem.optin,0.99"), std::string::npos) << s;  // tightest: 1 KiB under 227 KiB

  const std::string refused = row_of(csv, "refused_grid_y");
  ASSERT_FALSE(refused.empty()) << "the refused launch is named" << csv;
  EXPECT_EQ(refused.rfind("1,refused_grid_y,", 0) == 0 || refused.rfind("2,refused_grid_y,", 0) == 0, true)
      << "ranked first: " << refused;
  EXPECT_NE(refused.find(",1,1,"), std::string::npos) << "1 launch, 1 refused: " << refused;
  const std::string zero = row_of(csv, "zero_grid");
  ASSERT_FALSE(zero.empty()) << csv;
  EXPECT_NE(zero.find(",1,1,"), std::string::npos) << zero;
  const std::string unrelated = row_of(csv, "unrelated_kernel");
  EXPECT_NE(unrelated.find(",1,0,0,0,"), std::string::npos) << "not refused, whatever the program blames: " << unrelated;
}

}  // namespace
}  // namespace gridfuzz::testing
