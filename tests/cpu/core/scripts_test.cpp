// scripts/nightly and scripts/run as a CI job and a user run them, on this machine: without a GPU
// the nightly exits 3 before doing any work (no GPU, no green); --allow-static tests the job and
// never offers its CSV as a baseline; scripts/run ends with the report command. Each run uses the
// gridfuzz binary of this build (GRIDFUZZ_PREBUILT) and builds nothing.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "gridfuzz/device/device.hpp"
#include "split_output.hpp"

namespace fs = std::filesystem;

namespace {

using gridfuzz::testing::run_split;
using gridfuzz::testing::shell_quote;
using gridfuzz::testing::SplitResult;

struct TempDir {
  fs::path path = fs::temp_directory_path() /
                  ("gridfuzz-scripts-" + std::to_string(getpid()) + "-" +
                   std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
  std::string operator/(const std::string& name) const { return (path / name).string(); }
};

const std::string kSource = GRIDFUZZ_SOURCE_DIR;

// A folder with only this build's gridfuzz in it: what GRIDFUZZ_PREBUILT points at (no GPU test
// or benchmark binaries, so the job is quick).
std::string prebuilt(const TempDir& tmp) {
  fs::create_directories(tmp.path / "bin");
  fs::create_symlink(GRIDFUZZ_BINARY, tmp.path / "bin" / "gridfuzz");
  return tmp / "bin";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(Nightly, WithoutAGpuExits3BeforeBuildingAnything) {
  TempDir tmp;
  // An nvidia-smi that finds no GPU, first on PATH (as on a runner with a driver and no GPU).
  fs::create_directories(tmp.path / "fakebin");
  {
    std::ofstream smi(tmp.path / "fakebin" / "nvidia-smi");
    smi << "#!/bin/sh\necho 'No devices were found'\nexit 6\n";
  }
  fs::permissions(tmp.path / "fakebin" / "nvidia-smi", fs::perms::owner_all);
  const SplitResult r = run_split("env -u GRIDFUZZ_PREBUILT PATH=" + shell_quote(tmp / "fakebin") + ":\"$PATH\" " +
                                  "GRIDFUZZ_BUILD=" + shell_quote(tmp / "build") + " " +
                                  shell_quote(kSource + "/scripts/nightly") + " --artifacts " + shell_quote(tmp / "a"));
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "no GPU")) << r.out;
  EXPECT_TRUE(contains(r.out, "--allow-static")) << r.out;
  EXPECT_FALSE(fs::exists(tmp.path / "build")) << "it started a build";
  EXPECT_FALSE(fs::exists(tmp.path / "a" / "sweep.csv"));
}

TEST(Nightly, PrebuiltWithoutAGpuExits3BeforeTheSweep) {
  if (gridfuzz::device::device_count() > 0) GTEST_SKIP() << "this machine has a GPU: the job would run";
  TempDir tmp;
  const SplitResult r = run_split("GRIDFUZZ_PREBUILT=" + shell_quote(prebuilt(tmp)) + " " +
                                  shell_quote(kSource + "/scripts/nightly") + " --no-bench --artifacts " +
                                  shell_quote(tmp / "a"));
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "no GPU: no CUDA device")) << r.out;
  EXPECT_FALSE(contains(r.out, "exit 0")) << r.out;
  EXPECT_FALSE(fs::exists(tmp.path / "a" / "sweep.csv")) << "it ran the sweep";
}

TEST(Nightly, AllowStaticTestsTheJobAndNeverOffersABaseline) {
  if (gridfuzz::device::device_count() > 0) GTEST_SKIP() << "this machine has a GPU: the run would not be static";
  TempDir tmp;
  const SplitResult r = run_split("GRIDFUZZ_PREBUILT=" + shell_quote(prebuilt(tmp)) + " " +
                                  shell_quote(kSource + "/scripts/nightly") + " --allow-static --no-bench --artifacts " +
                                  shell_quote(tmp / "a") + " -- gguf.quantize_q8_1 --cases 1");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "STATIC RUN")) << r.out;
  EXPECT_TRUE(contains(r.out, "gate: not run")) << r.out;
  EXPECT_FALSE(contains(r.out, "cp ")) << "a static CSV offered as a baseline\n" << r.out;
  EXPECT_FALSE(contains(r.out, "make this run the baseline")) << r.out;
  EXPECT_TRUE(fs::exists(tmp.path / "a" / "sweep.csv"));
  EXPECT_TRUE(fs::exists(tmp.path / "a" / "report" / "report.md"));
  EXPECT_FALSE(fs::exists(tmp.path / "a" / "diff.txt"));
}

// The nightly's sweep runs 4 workers a GPU unless its sweep arguments say how many; the speed tier
// is timed and keeps one (--timing refuses more).
TEST(Nightly, TheSweepRunsFourWorkersAGpuUnlessToldAndTheSpeedTierOne) {
  if (gridfuzz::device::device_count() > 0) GTEST_SKIP() << "this machine has a GPU: the run would not be static";
  TempDir tmp;
  const std::string bin = prebuilt(tmp);
  const auto nightly = [&](const std::string& dir, const std::string& extra) {
    return run_split("GRIDFUZZ_PREBUILT=" + shell_quote(bin) + " " + shell_quote(kSource + "/scripts/nightly") +
                     " --allow-static --no-bench --artifacts " + shell_quote(tmp / dir) + " -- gguf.quantize_q8_1 --cases 1" +
                     extra);
  };
  const auto line_of = [](const std::string& out, const std::string& start) {
    const std::size_t at = out.find(start);
    return at == std::string::npos ? std::string() : out.substr(at, out.find('\n', at) - at);
  };
  const SplitResult plain = nightly("a", "");
  ASSERT_EQ(plain.exit_code, 0) << plain.out << plain.err;
  EXPECT_TRUE(contains(line_of(plain.out, "nightly: sweep: "), "--workers-per-device 4")) << plain.out;
  EXPECT_FALSE(contains(line_of(plain.out, "nightly: speed: "), "--workers-per-device")) << plain.out;
  const SplitResult told = nightly("b", " --workers-per-device 2");
  ASSERT_EQ(told.exit_code, 0) << told.out << told.err;
  const std::string sweep = line_of(told.out, "nightly: sweep: ");
  EXPECT_TRUE(contains(sweep, "--workers-per-device 2")) << sweep;
  EXPECT_FALSE(contains(sweep, "--workers-per-device 4")) << sweep;
  EXPECT_FALSE(contains(line_of(told.out, "nightly: speed: "), "--workers-per-device")) << told.out;
  // Cheapest first unless the sweep arguments name an order (two --order would be refused).
  EXPECT_TRUE(contains(line_of(plain.out, "nightly: sweep: "), "--order cost")) << plain.out;
  const SplitResult tiers = nightly("c", " --order tiers");
  ASSERT_EQ(tiers.exit_code, 0) << tiers.out << tiers.err;
  EXPECT_FALSE(contains(line_of(tiers.out, "nightly: sweep: "), "--order cost")) << tiers.out;
  EXPECT_TRUE(contains(line_of(tiers.out, "nightly: sweep: "), "--order tiers")) << tiers.out;
}

TEST(RunScript, EndsWithTheReportCommandOfItsCsv) {
  TempDir tmp;
  const std::string csv = tmp / "my run.csv";
  const SplitResult r = run_split("cd " + shell_quote(tmp.path.string()) + " && GRIDFUZZ_PREBUILT=" +
                                  shell_quote(prebuilt(tmp)) + " " + shell_quote(kSource + "/scripts/run") +
                                  " gguf.quantize_q8_1 --device-preset sm_90 --static --cases 1 --csv " + shell_quote(csv));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  // The last line is the command; run as printed, it writes the report.
  std::istringstream lines(r.out);
  std::string line, last;
  while (std::getline(lines, line))
    if (!line.empty()) last = line;
  EXPECT_TRUE(contains(r.out, "next: ")) << r.out;
  EXPECT_TRUE(contains(last, " report ")) << last;
  EXPECT_TRUE(contains(last, "my\\ run.csv")) << last;
  const SplitResult report = run_split("cd " + shell_quote(tmp.path.string()) + " && " + last + " --no-plots");
  EXPECT_EQ(report.exit_code, 0) << last << "\n" << report.out << report.err;
  EXPECT_TRUE(fs::exists(tmp.path / "report" / "report.md")) << last;
}

}  // namespace
