// The gridfuzz binary on bad and good input: exit codes and messages, never a crash.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

#include "../../support/run_gridfuzz.hpp"
#include "parse.hpp"

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

TEST(CliLimits, StaticTableWithoutGpu) {
  const auto r = run("limits --device-preset sm_80");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("166912 opt-in"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("| grid.z | probe_trivial | 1,1,65536 |"), std::string::npos) << r.output;
}

TEST(CliParse, ParsesDecimalAndRejectsEverythingElse) {
  using gridfuzz::cli::parse_u64;
  using gridfuzz::cli::UsageError;
  EXPECT_EQ(parse_u64("0", "o"), 0u);
  EXPECT_EQ(parse_u64("18446744073709551615", "o"), UINT64_MAX);
  for (const char* bad : {"", "-1", "18446744073709551616", "1e3", "0x10", " 1", "1 ", "+1", "1,2"})
    EXPECT_THROW(parse_u64(bad, "o"), UsageError) << bad;
  const auto d = gridfuzz::cli::parse_dim3("7,8", "g");
  EXPECT_EQ(d, (gridfuzz::Dim3{7, 8, 1}));
}

RC_GTEST_PROP(CliParseProperty, EveryU64RoundTripsThroughText, (std::uint64_t v)) {
  RC_ASSERT(gridfuzz::cli::parse_u64(std::to_string(v), "o") == v);
}

RC_GTEST_PROP(CliParseProperty, TextWithANonDigitIsRejected, (std::string s)) {
  RC_PRE(s.find_first_not_of("0123456789") != std::string::npos);
  RC_ASSERT_THROWS_AS(gridfuzz::cli::parse_u64(s, "o"), gridfuzz::cli::UsageError);
}
