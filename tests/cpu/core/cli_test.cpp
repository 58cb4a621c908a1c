// The gridfuzz binary on bad and good input: exit codes and messages, never a crash.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "../../support/run_gridfuzz.hpp"
#include "gridfuzz/app/parse.hpp"
#include "split_output.hpp"

namespace {

using Result = gridfuzz::testing::CommandResult;
// --device-preset in the arguments keeps the result the same with or without a GPU.
Result run(const std::string& args) { return gridfuzz::testing::run_gridfuzz(args); }

}  // namespace

TEST(CliPlan, AcceptedIsExit0RefusedIsExit1) {
  auto r = run("plan --grid 1,1,65535 --block 32 --device-preset sm_90");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("prediction: accept"), std::string::npos) << r.output;
  r = run("plan --grid 1,1,65536 --block 32 --device-preset sm_90");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("refuse:grid.z"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("grid.z 65536 > 65535"), std::string::npos) << r.output;
}

TEST(CliPlan, GlobalOptionsAreAcceptedBeforeOrAfterTheCommand) {
  EXPECT_EQ(run("--device-preset sm_90 plan --grid 8 --block 1025").exit_code, 1);
  EXPECT_EQ(run("plan --grid 8 --block 1025 --device-preset sm_90").exit_code, 1);
}

TEST(CliPlan, SharedMemoryRegistersAndOptIn) {
  EXPECT_EQ(run("plan --grid 1 --block 32 --smem 49153 --device-preset sm_90").exit_code, 1);
  EXPECT_EQ(run("plan --grid 1 --block 32 --smem 49153 --optin --device-preset sm_90").exit_code, 0);
  EXPECT_EQ(run("plan --grid 1 --block 544 --regs 128 --device-preset sm_90").exit_code, 1);
  EXPECT_EQ(run("plan --grid 1 --block 512 --regs 128 --device-preset sm_90").exit_code, 0);
}

TEST(CliPlan, BadInputIsExit2WithAMessage) {
  const std::pair<const char*, const char*> cases[] = {
      {"plan --grid abc --block 32 --device-preset sm_90", "not a whole number"},
      {"plan --grid -5 --block 32 --device-preset sm_90", "negative"},
      {"plan --grid 99999999999999999999999 --block 32 --device-preset sm_90", "too large"},
      {"plan --grid 1,,3 --block 32 --device-preset sm_90", "missing value"},
      {"plan --grid 1,2,3,4 --block 32 --device-preset sm_90", "more than 3"},
      {"plan --block 32 --device-preset sm_90", "--grid and --block are required"},
      {"plan --grid 1 --block 32 --device-preset sm_99", "unknown preset"},
      {"plan --grid 1 --block 32 --smem 1.5 --device-preset sm_90", "not a whole number"},
      {"plan --grid 1 --block 32 --regs 70000 --device-preset sm_90", "--regs"},
      {"plan --grid 1 --block 32 --device 0 --device-preset sm_90", "exclude each other"},
      {"plan --grid 1 --block 32 --bogus", "bogus"},
      {"", "subcommand"},
  };
  for (const auto& [args, message] : cases) {
    const auto r = run(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << args << "\n" << r.output;
  }
}

TEST(CliPlan, MissingOptionValueIsExit2) {
  const auto r = run("plan --block 32 --device-preset sm_90 --grid");
  EXPECT_EQ(r.exit_code, 2) << r.output;
}

// --variant takes a comma list as --set and --model do, or repeats; an unknown name is still exit 2.
TEST(CliRun, VariantTakesACommaListOrRepeats) {
  const std::string tail = " --set tokens=8192 --static --device-preset sm_90";
  for (const std::string variants : {"--variant legacy,fixed,zchunk", "--variant legacy --variant fixed,zchunk"}) {
    const Result r = run("run gguf.moe_vec " + variants + tail);
    EXPECT_EQ(r.exit_code, 0) << r.output;  // static rows: predictions, not failures
    EXPECT_NE(r.output.find("3 case(s)"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("gguf.moe_vec/legacy/"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("gguf.moe_vec/fixed/"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("gguf.moe_vec/zchunk/"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("gguf.moe_vec/rows_x/"), std::string::npos) << r.output;
  }
  const Result bad = run("run gguf.moe_vec --variant fixed,nonesuch" + tail);
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("unknown variant 'nonesuch'"), std::string::npos) << bad.output;
}

TEST(CliLimits, StaticTableWithoutGpu) {
  const auto r = run("limits --device-preset sm_80");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("166912 opt-in"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("| grid.z | probe_trivial | 1,1,65536 |"), std::string::npos) << r.output;
}

TEST(CliParse, ParsesDecimalAndRejectsEverythingElse) {
  using gridfuzz::app::parse_u64;
  using gridfuzz::app::UsageError;
  EXPECT_EQ(parse_u64("0", "o"), 0u);
  EXPECT_EQ(parse_u64("18446744073709551615", "o"), UINT64_MAX);
  for (const char* bad : {"", "-1", "18446744073709551616", "1e3", "0x10", " 1", "1 ", "+1", "1,2"})
    EXPECT_THROW(parse_u64(bad, "o"), UsageError) << bad;
  const auto d = gridfuzz::app::parse_dim3("7,8", "g");
  EXPECT_EQ(d, (gridfuzz::Dim3{7, 8, 1}));
}

RC_GTEST_PROP(CliParseProperty, EveryU64RoundTripsThroughText, (std::uint64_t v)) {
  RC_ASSERT(gridfuzz::app::parse_u64(std::to_string(v), "o") == v);
}

RC_GTEST_PROP(CliParseProperty, TextWithANonDigitIsRejected, (std::string s)) {
  RC_PRE(s.find_first_not_of("0123456789") != std::string::npos);
  RC_ASSERT_THROWS_AS(gridfuzz::app::parse_u64(s, "o"), gridfuzz::app::UsageError);
}

// ---- Output a CI and a person can read (issue 18, item 2) -----------------------------------

namespace {

using gridfuzz::testing::run_gridfuzz_split;
using gridfuzz::testing::SplitResult;

// The subcommands `gridfuzz --help` lists.
std::vector<std::string> subcommands() {
  const std::string help = run("--help").output;
  std::vector<std::string> names;
  const std::size_t start = help.find("Subcommands:");
  if (start == std::string::npos) return names;
  std::istringstream lines(help.substr(start));
  std::string line;
  std::getline(lines, line);
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string name;
    if (line.rfind("  ", 0) == 0 && (words >> name)) names.push_back(name);
  }
  return names;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST(CliVersion, PrintsVersionCommitCudaRuntimeAndDriver) {
  for (const char* args : {"--version", "sweep --version"}) {
    const SplitResult r = run_gridfuzz_split(args);
    EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.out << r.err;
    EXPECT_EQ(r.out.rfind(std::string("gridfuzz ") + GRIDFUZZ_PROJECT_VERSION + "\n", 0), 0u) << r.out;
    EXPECT_TRUE(contains(r.out, "\ncommit: ")) << r.out;
    EXPECT_TRUE(contains(r.out, "\nCUDA runtime (built with): 1")) << r.out;
    // "driver: CUDA 13.0" on a GPU machine, "driver: no driver (...)" without one.
    EXPECT_TRUE(contains(r.out, "\ndriver: CUDA ") || contains(r.out, "\ndriver: no driver")) << r.out;
  }
}

TEST(CliHelp, EverySubcommandListsTheGlobalOptions) {
  const auto names = subcommands();
  ASSERT_GE(names.size(), 10u) << run("--help").output;
  for (const auto& name : names) {
    const auto r = run(name + " --help");
    EXPECT_EQ(r.exit_code, 0) << name << "\n" << r.output;
    for (const char* global : {"Global options", "--device ", "--device-preset", "--plugin", "--version"})
      EXPECT_TRUE(contains(r.output, global)) << name << " --help lacks " << global << "\n" << r.output;
  }
  EXPECT_TRUE(contains(run("--help").output, "Global options")) << run("--help").output;
}

TEST(CliOutput, NotesGoToStderrRowsAndSummariesToStdout) {
  const SplitResult r =
      run_gridfuzz_split("run gguf.moe_vec --variant legacy --set tokens=8191,8192 --static --device-preset sm_90");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.err, "note: ")) << r.err;
  EXPECT_FALSE(contains(r.out, "note:")) << r.out;
  EXPECT_TRUE(contains(r.out, "gguf.moe_vec")) << "the rows are data: stdout\n" << r.out;
  EXPECT_TRUE(contains(r.out, "2 case(s), 0 failing")) << r.out;

  const SplitResult sweep =
      run_gridfuzz_split("sweep gguf.quantize_q8_1 --static --device-preset sm_90 --cases 1 --shard 1/2 --csv /tmp/gf-notes-" +
                         std::to_string(getpid()) + ".csv");
  std::remove(("/tmp/gf-notes-" + std::to_string(getpid()) + ".csv").c_str());
  EXPECT_EQ(sweep.exit_code, 0) << sweep.out << sweep.err;
  EXPECT_TRUE(contains(sweep.err, "note: shard 1/2")) << sweep.err;
  EXPECT_TRUE(contains(sweep.out, "sweep: ")) << sweep.out;
  EXPECT_FALSE(contains(sweep.out, "note:")) << sweep.out;
}

// Outside a terminal (here: a pipe) the sweep prints a progress line every
// GRIDFUZZ_PROGRESS_SECONDS on stderr, never on stdout.
TEST(CliOutput, ProgressLinesOnStderrOutsideATerminal) {
  const std::string csv = "/tmp/gf-progress-" + std::to_string(getpid()) + ".csv";
  const SplitResult r = run_gridfuzz_split(
      "sweep gguf.quantize_q8_1 --static --device-preset sm_90 --cases 3 --csv " + csv, "GRIDFUZZ_PROGRESS_SECONDS=0");
  std::remove(csv.c_str());
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.err, "progress [1/")) << r.err;
  EXPECT_TRUE(contains(r.err, "cases/s ETA ")) << r.err;
  EXPECT_TRUE(contains(r.err, "(done)")) << r.err;
  EXPECT_FALSE(contains(r.out, "progress [")) << r.out;
}

TEST(CliJson, ListIsValidJsonWithEveryKernel) {
  const SplitResult r = run_gridfuzz_split("list --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto check = gridfuzz::testing::jq_check(
      R"jq(.kernels | length >= 5 and (map(.name) | index("gguf.moe_vec") != null) and
         all(.[]; (.variants | length > 0) and all(.axes[]; .name != null and .default != null)))jq");
  if (!check) GTEST_SKIP() << "jq is not installed (Debian jq; scripts/lib.sh installs it): no JSON parser to check with";
  EXPECT_EQ(gridfuzz::testing::pipe_text_into(r.out, *check), 0) << r.out;
}

TEST(CliJson, DevicesIsValidJson) {
  const SplitResult r = run_gridfuzz_split("devices --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto check = gridfuzz::testing::jq_check(
      R"jq((.devices | type == "array") and (.presets | index("sm_90") != null) and
         ((.devices | length > 0) or (.no_device | type == "string")))jq");
  if (!check) GTEST_SKIP() << "jq is not installed (Debian jq; scripts/lib.sh installs it): no JSON parser to check with";
  EXPECT_EQ(gridfuzz::testing::pipe_text_into(r.out, *check), 0) << r.out;
}

TEST(CliJson, SweepSummaryIsTheOnlyThingOnStdout) {
  const std::string csv = "/tmp/gf-json-" + std::to_string(getpid()) + ".csv";
  const SplitResult r =
      run_gridfuzz_split("sweep gguf.quantize_q8_1 --static --device-preset sm_90 --cases 2 --json --csv " + csv);
  std::remove(csv.c_str());
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << "one JSON line, no row lines\n" << r.out;
  const auto check = gridfuzz::testing::jq_check(
      R"jq(.ran > 0 and .verdicts.static == .ran and .exit_code == 0 and .on_device == false and
         (.failures | length == 0) and (.csv | endswith(".csv")))jq");
  if (!check) GTEST_SKIP() << "jq is not installed (Debian jq; scripts/lib.sh installs it): no JSON parser to check with";
  EXPECT_EQ(gridfuzz::testing::pipe_text_into(r.out, *check), 0) << r.out;
}

// The seed's headline LM-head boundaries, reached from the model profiles by name: one result
// line per profile shape, each the first tokens whose tokens*vocab reaches 2^31.
TEST(CliModels, BisectFromEachProfileGivesItsHeadlineBoundary) {
  const Result r = run("bisect affine.qmm --variant legacy --axis tokens --model llama3-8b,qwen3-235b-a22b,gemma-4-26b-a4b "
                       "--static --device-preset sm_90");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* line : {"model shape llama3-8b:lm_head:", "first_fail=16744", "model shape qwen3-235b-a22b:lm_head:",
                           "first_fail=14135", "model shape gemma-4-26b-a4b:lm_head:", "first_fail=8192"})
    EXPECT_NE(r.output.find(line), std::string::npos) << line << "\n" << r.output;
  const Result fixed = run("bisect gguf.moe_vec --variant fixed --axis tokens --range 1:1000000 --static --device-preset sm_90");
  EXPECT_EQ(fixed.exit_code, 0) << fixed.output;
  EXPECT_NE(fixed.output.find("first_fail=none"), std::string::npos) << fixed.output;
}

TEST(CliModels, ListsEveryProfileAndRefusesUnknownNames) {
  const Result list = run("models");
  ASSERT_EQ(list.exit_code, 0) << list.output;
  for (const char* name : {"llama3-8b", "deepseek-v3", "gpt-oss-120b", "source: "})
    EXPECT_NE(list.output.find(name), std::string::npos) << name;
  const Result bad = run("run gguf.moe_vec --model no-such-model --static --device-preset sm_90");
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("no profile 'no-such-model'"), std::string::npos) << bad.output;
  const Result glob = run("sweep 'no-such.*' --static --device-preset sm_90 --cases 0");
  EXPECT_EQ(glob.exit_code, 2) << glob.output;
  EXPECT_NE(glob.output.find("no kernel matches 'no-such.*'"), std::string::npos) << glob.output;
}
