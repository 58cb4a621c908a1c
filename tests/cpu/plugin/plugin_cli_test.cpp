// `gridfuzz --plugin`: a good plugin's kernels appear in `gridfuzz list` (wherever the option is on
// the line), and every bad one is refused with exit 2 and a message naming the file and the problem.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

struct Result {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

Result run(const std::string& args) {
  Result r;
  const std::string command = std::string(GRIDFUZZ_BINARY) + " " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buf{};
  while (fgets(buf.data(), buf.size(), pipe)) r.output += buf.data();
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

const char* const kSelftestKernels[] = {
    "selftest.flat_yz",         "selftest.dropped_rows",   "selftest.host_int32",  "selftest.int32_offset",
    "selftest.int32_offset_fault", "selftest.uint32_offset", "selftest.grid_stride_loop", "selftest.block_threads",
    "selftest.dynamic_smem",    "selftest.register_pressure"};

}  // namespace

TEST(PluginCli, BuiltInSuiteHasNoSelftestKernels) {
  const Result r = run("list");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("gguf.moe_vec"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("selftest."), std::string::npos) << r.output;
}

TEST(PluginCli, SelftestPluginKernelsAppearInList) {
  for (const std::string placement : {"--plugin " GRIDFUZZ_SELFTEST_PLUGIN " list", "list --plugin " GRIDFUZZ_SELFTEST_PLUGIN}) {
    const Result r = run(placement);
    ASSERT_EQ(r.exit_code, 0) << placement << "\n" << r.output;
    for (const char* k : kSelftestKernels) EXPECT_NE(r.output.find(std::string(k) + ":"), std::string::npos) << k;
    EXPECT_NE(r.output.find("gguf.moe_vec"), std::string::npos) << "built-in kernels must stay";
  }
}

TEST(PluginCli, PluginKernelIsUsableByCommands) {
  const Result r = run("--plugin " GRIDFUZZ_SELFTEST_PLUGIN
                       " run selftest.flat_yz --variant legacy --set rows=65536 --static --device-preset sm_90");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("refuse:grid.z"), std::string::npos) << r.output;
}

TEST(PluginCli, MissingFileIsRefusedWithExit2) {
  const Result r = run("--plugin /nonexistent/libnothing.so list");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("/nonexistent/libnothing.so"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("no such file"), std::string::npos) << r.output;
}

TEST(PluginCli, NotASharedLibraryIsRefusedWithExit2) {
  const auto path = std::filesystem::temp_directory_path() / ("gridfuzz-not-a-library-" + std::to_string(getpid()) + ".so");
  std::ofstream(path) << "this is text, not ELF\n";
  const Result r = run("--plugin " + path.string() + " list");
  std::filesystem::remove(path);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("cannot be loaded as a shared library"), std::string::npos) << r.output;
}

TEST(PluginCli, LibraryWithoutEntryPointIsRefusedWithExit2) {
  const Result r = run("--plugin " NO_ENTRY_PLUGIN " list");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("no entry point gridfuzz_plugin_register"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(NO_ENTRY_PLUGIN), std::string::npos) << r.output;
}

TEST(PluginCli, ApiVersionMismatchIsRefusedWithExit2) {
  const Result r = run("list --plugin " VERSION_MISMATCH_PLUGIN);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("API version mismatch"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("version 999"), std::string::npos) << r.output;
}

TEST(PluginCli, FailedRegistrationIsRefusedWithItsMessage) {
  const Result r = run("--plugin " THROWING_PLUGIN " list");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("registration failed: no kernels for you"), std::string::npos) << r.output;
  const Result twice = run("--plugin " GRIDFUZZ_SELFTEST_PLUGIN " --plugin " GRIDFUZZ_SELFTEST_PLUGIN " list");
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_NE(twice.output.find("registered twice"), std::string::npos) << twice.output;
}

// Issue 19, item 5: it used to print the error, then crash (SIGSEGV, exit 139) at exit.
TEST(PluginCli, RegistrationThatFailsAfterRegisteringExitsCleanly) {
  const Result r = run("--plugin " REGISTER_THEN_FAIL_PLUGIN " list");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("registered, then failed"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("selftest."), std::string::npos) << "nothing of a failed plugin is listed: " << r.output;
}
