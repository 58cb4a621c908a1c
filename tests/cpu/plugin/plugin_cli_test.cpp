// `gridfuzz --plugin`: a good plugin's kernels appear in `gridfuzz list` (wherever the option is on
// the line), and every bad one is refused with exit 2 and a message naming the file and the problem.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
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

// `prefix` (NAME=value ..., or a command such as `timeout 20`) in front of the binary.
Result run_with_env(const std::string& env, const std::string& args) {
  Result r;
  const std::string command = env + std::string(GRIDFUZZ_BINARY) + " " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buf{};
  while (fgets(buf.data(), buf.size(), pipe)) r.output += buf.data();
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

Result run(const std::string& args) { return run_with_env("", args); }

const char* const kSelftestKernels[] = {
    "selftest.flat_yz",         "selftest.dropped_rows",   "selftest.host_int32",  "selftest.int32_offset",
    "selftest.int32_offset_fault", "selftest.uint32_offset", "selftest.grid_stride_loop", "selftest.block_threads",
    "selftest.dynamic_smem",    "selftest.register_pressure", "selftest.race"};

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

// Issue 34, item 5: what hung or crashed gridfuzz is refused with exit 2, naming the plugin.
TEST(PluginCli, FifosDevicesAndTruncatedLibrariesAreRefusedBeforeLoading) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("gridfuzz-plugin-files-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path fifo = dir / "fifo.so";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  Result r = run_with_env("timeout 20 ", "--plugin " + fifo.string() + " list");  // dlopen would wait forever
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("not a regular file"), std::string::npos) << r.output;
  r = run("--plugin /dev/stdin list < /dev/null");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  // A library cut short at several sizes: dlopen would fault (SIGBUS) touching the missing pages.
  const auto size = fs::file_size(GRIDFUZZ_SELFTEST_PLUGIN);
  for (const auto keep : {size / 8, size / 2, size - 4096, std::uintmax_t{100}}) {
    const fs::path cut = dir / ("cut-" + std::to_string(keep) + ".so");
    fs::copy_file(GRIDFUZZ_SELFTEST_PLUGIN, cut, fs::copy_options::overwrite_existing);
    fs::resize_file(cut, keep);
    r = run("--plugin " + cut.string() + " list");
    EXPECT_EQ(r.exit_code, 2) << keep << " bytes: " << r.output;
    EXPECT_NE(r.output.find("truncated"), std::string::npos) << keep << " bytes: " << r.output;
    EXPECT_NE(r.output.find(cut.string()), std::string::npos) << r.output;
  }
  fs::remove_all(dir);
}

TEST(PluginCli, KernelsThatBreakTheContractAreRefusedNotCrashedOn) {
  const std::pair<const char*, const char*> cases[] = {
      {"no-variants", "kernel 'hostile.k' has no variant"},
      {"zero-step", "axis 'rows' has step 0"},
      {"bad-default", "a default is not a valid value of its axis: axis 'rows': 0 is outside [1, 1048576]"},
      {"odd-register", "threw a non-standard exception"},
  };
  for (const auto& [mode, message] : cases) {
    const std::string env = std::string("GRIDFUZZ_TEST_HOSTILE=") + mode + " ";
    const Result refused = run_with_env(env, std::string("--plugin ") + HOSTILE_PLUGIN + " list");
    EXPECT_EQ(refused.exit_code, 2) << mode << ": " << refused.output;
    EXPECT_NE(refused.output.find(message), std::string::npos) << mode << ": " << refused.output;
    EXPECT_NE(refused.output.find(HOSTILE_PLUGIN), std::string::npos) << mode << ": " << refused.output;
  }
  // Kernels that register but fail when a case is bound: the command is refused, naming the kernel.
  for (const char* mode : {"null-bind", "odd-throw"}) {
    const std::string env = std::string("GRIDFUZZ_TEST_HOSTILE=") + mode + " ";
    for (const std::string command : {"plan hostile.k --set rows=4 --device-preset sm_90",
                                      "run hostile.k --set rows=4 --static --device-preset sm_90",
                                      "bisect hostile.k --axis rows --static --device-preset sm_90",
                                      "sweep hostile.k --static --device-preset sm_90 --cases 3"}) {
      const Result r = run_with_env(env, std::string("--plugin ") + HOSTILE_PLUGIN + " " + command);
      EXPECT_EQ(r.exit_code, 2) << mode << ": " << command << "\n" << r.output;
      EXPECT_NE(r.output.find("hostile.k: bind()"), std::string::npos) << mode << ": " << command << "\n" << r.output;
    }
  }
}

// examples/plugin/my_plugin.cu, built here as CI builds it out of tree: on the API's defaults
// (description, one variant, no split reference) it lists, plans and bisects to its boundary.
TEST(PluginCli, TheExamplePluginWorksOnTheDefaults) {
  const Result list = run("--plugin " EXAMPLE_PLUGIN " list");
  ASSERT_EQ(list.exit_code, 0) << list.output;
  EXPECT_NE(list.output.find("my.rms_norm: no description"), std::string::npos) << list.output;
  const Result plan = run("--plugin " EXAMPLE_PLUGIN " plan my.rms_norm --set rows=65535 --device-preset sm_90");
  EXPECT_EQ(plan.exit_code, 0) << plan.output;
  const Result bisect = run("--plugin " EXAMPLE_PLUGIN " bisect my.rms_norm --axis rows --static --device-preset sm_90");
  EXPECT_EQ(bisect.exit_code, 0) << bisect.output;
  EXPECT_NE(bisect.output.find("first_fail=65536 rule=refuse:grid.y"), std::string::npos) << bisect.output;
  const Result row = run("--plugin " EXAMPLE_PLUGIN " run my.rms_norm --set rows=65536 --static --device-preset sm_90");
  EXPECT_NE(row.output.find("my.rms_norm/default/"), std::string::npos) << row.output;  // the one variant
  EXPECT_NE(row.output.find("refuse:grid.y"), std::string::npos) << row.output;
}

// examples/gguf_plugin/q4_0_gemv_plugin.cu (a user's q4_0 GEMV on gridfuzz::formats), built here as
// CI builds it out of tree: the model puts the legacy variant's planted int32 wrap of y's index
// where tokens * rows passes 2^31 (4096 rows: 524289 tokens; 1000 rows: 2147484 tokens, past the
// axis, so no failure), and finds none in the fixed variant.
TEST(PluginCli, TheGgufExamplePluginsPlantedWrapIsWhereTheModelSays) {
  const Result list = run("--plugin " GGUF_EXAMPLE_PLUGIN " list");
  ASSERT_EQ(list.exit_code, 0) << list.output;
  EXPECT_NE(list.output.find("my.q4_0_gemv: a user's q4_0 x q8_1 GEMV on gridfuzz::formats"), std::string::npos)
      << list.output;
  EXPECT_NE(list.output.find("variants: legacy fixed"), std::string::npos) << list.output;
  const std::string bisect = "--plugin " GGUF_EXAMPLE_PLUGIN " bisect my.q4_0_gemv --axis tokens --static --device-preset sm_90";
  const Result legacy = run(bisect + " --variant legacy");
  EXPECT_EQ(legacy.exit_code, 0) << legacy.output;
  EXPECT_NE(legacy.output.find("last_pass=524288 first_fail=524289 rule=wrap:y_index"), std::string::npos)
      << legacy.output;
  const Result narrow = run(bisect + " --variant legacy --set rows=1000");
  EXPECT_NE(narrow.output.find("last_pass=2097152 first_fail=none"), std::string::npos) << narrow.output;
  const Result fixed = run(bisect + " --variant fixed");
  EXPECT_NE(fixed.output.find("last_pass=2097152 first_fail=none rule=none"), std::string::npos) << fixed.output;
  // The plan at the first wrapping shape: one launch, tokens past 65535 walked by the warps, the
  // wrap named with its largest value (524289 * 4096 - 1).
  const Result plan = run("--plugin " GGUF_EXAMPLE_PLUGIN
                          " plan my.q4_0_gemv --variant legacy --set tokens=524289 --device-preset sm_90");
  EXPECT_NE(plan.output.find("q4_0_gemv_kernel grid=(1024,65535,1) block=(128,1,1)"), std::string::npos) << plan.output;
  EXPECT_NE(plan.output.find("index y_index: wrap:y_index (max 2147487743 >= 2147483648)"), std::string::npos)
      << plan.output;
  EXPECT_NE(plan.output.find("index x_block: safe"), std::string::npos) << plan.output;
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

// Issue 34, item 5: a static initializer that called exit(0) made every command exit 0 with no
// output; one that aborts killed gridfuzz. Both are met in a probe process first and refused.
TEST(PluginCli, AStaticInitializerThatEndsTheProcessIsRefusedNamingThePlugin) {
  const Result exits = run("--plugin " EXIT_IN_INITIALIZER_PLUGIN " list");
  EXPECT_EQ(exits.exit_code, 2) << exits.output;
  EXPECT_NE(exits.output.find(EXIT_IN_INITIALIZER_PLUGIN), std::string::npos) << exits.output;
  EXPECT_NE(exits.output.find("exit status 0"), std::string::npos) << exits.output;
  EXPECT_EQ(exits.output.find("gguf.moe_vec"), std::string::npos) << "no command runs: " << exits.output;
  EXPECT_EQ(std::count(exits.output.begin(), exits.output.end(), '\n'), 1) << exits.output;

  const Result aborts = run("--plugin " ABORT_IN_INITIALIZER_PLUGIN " list");
  EXPECT_EQ(aborts.exit_code, 2) << aborts.output;
  EXPECT_NE(aborts.output.find(ABORT_IN_INITIALIZER_PLUGIN), std::string::npos) << aborts.output;
  EXPECT_NE(aborts.output.find("signal 6"), std::string::npos) << aborts.output;
  EXPECT_EQ(std::count(aborts.output.begin(), aborts.output.end(), '\n'), 1) << aborts.output;

  // A good plugin still loads after its probe, its kernels usable.
  const Result good = run("--plugin " GRIDFUZZ_SELFTEST_PLUGIN " list");
  EXPECT_EQ(good.exit_code, 0) << good.output;
  EXPECT_NE(good.output.find("selftest.flat_yz:"), std::string::npos) << good.output;
}
