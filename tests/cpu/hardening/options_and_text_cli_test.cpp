// Issue 34, item 7 (the smaller holes), through the real binary: options accepted that should not
// be, or silently ignored; text that reached the terminal or report.md raw; exit codes that
// differed by command. Each gets the contract's answer: exit 2 (bad input) or 3 (the environment)
// with one line, nothing run. No GPU needed.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "../../support/cli_expect.hpp"
#include "../../support/run_gridfuzz.hpp"
#include "../../support/temp_dir.hpp"

namespace fs = std::filesystem;

namespace {

using Result = gridfuzz::testing::CommandResult;

using gridfuzz::testing::TempDir;
using gridfuzz::testing::expect_one_line;
using gridfuzz::testing::slurp;
using gridfuzz::testing::write;

Result run(const std::string& args) { return gridfuzz::testing::run_gridfuzz(args); }

// A baseline CSV of static rows.
std::string csv_of(const TempDir& tmp, const std::string& name = "B.csv") {
  const Result r = run("run gguf.moe_vec --variant legacy --set tokens=8191,8192 --device-preset sm_90 --static --csv " +
                       tmp / name);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  return tmp / name;
}

// `--threshold 0x1` (hex, read as 1) and `' 10%'` (a leading space) were accepted.
TEST(OptionsAndTextCli, DiffThresholdIsADecimalNumberOrPercent) {
  TempDir tmp;
  const std::string b = csv_of(tmp);
  for (const char* bad : {"0x1", "' 10%'", "'10 %'", "+10%", "1e400", "nan", "10", "-1%", "''"})
    expect_one_line(run("diff " + b + " " + b + " --threshold " + bad), 2, "--threshold");
  for (const char* good : {"10%", "0.1", "0", "2.5%", "1e-1"})
    EXPECT_EQ(run("diff " + b + " " + b + " --threshold " + good).exit_code, 0) << good;
}

// `bisect --static --csv /tmp` ran and ignored --csv (a static bisect writes no row).
TEST(OptionsAndTextCli, StaticBisectRefusesCsvInsteadOfIgnoringIt) {
  TempDir tmp;
  const std::string bisect = "bisect affine.qmm --variant legacy --axis tokens --set vocab=128256 --range 1:40000 ";
  expect_one_line(run(bisect + "--static --csv /tmp"), 2, "--csv");
  // Why it is static, as it is: a preset (said "no GPU here: )" with nothing after it, also on a GPU).
  expect_one_line(run(bisect + "--device-preset sm_90 --csv " + tmp / "b.csv"), 2,
                  "writes no row (--device-preset judges against a preset: drop it to bisect on the GPU, or drop --csv)");
  EXPECT_FALSE(fs::exists(tmp / "b.csv"));
  const Result r = run(bisect + "--static");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("first_fail="), std::string::npos) << r.output;
}

// `gridfuzz nonsense --help` printed the general help and exited 0: a typo in a CI script passed.
TEST(OptionsAndTextCli, AnUnknownCommandIsExit2EvenWithHelp) {
  for (const char* line : {"nonsense --help", "nonsense", "--device-preset sm_90 nonsense --help", "swep --help",
                           "'\x1b[2J' --help"})
    expect_one_line(run(line), 2, "unknown command");
  EXPECT_EQ(run("--help").exit_code, 0);
  EXPECT_EQ(run("sweep --help").exit_code, 0);
  EXPECT_EQ(run("--device-preset sm_90 limits --help").exit_code, 0);
  EXPECT_EQ(run("--plugin /nonexistent.so --help").exit_code, 0);  // --help before anything is loaded
}

// report.md passed raw HTML and Markdown from the CSV's fields.
TEST(OptionsAndTextCli, ReportMarkdownShowsFieldsAndMakesNoMarkupOfThem) {
  TempDir tmp;
  std::string csv = slurp(csv_of(tmp));
  const std::string device = "preset:sm_90";
  const std::string evil = "<img src=x onerror=alert(1)> [click](javascript:alert(2)) **loud**";
  for (std::size_t at = csv.find(device); at != std::string::npos; at = csv.find(device, at + evil.size()))
    csv.replace(at, device.size(), evil);
  write(tmp / "evil.csv", csv);
  const Result r = run("report " + tmp / "evil.csv" + " --out " + tmp / "rep" + " --no-plots");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string md = slurp(tmp / "rep/report.md");
  EXPECT_EQ(md.find("<img"), std::string::npos) << md;
  EXPECT_EQ(md.find(" [click]"), std::string::npos) << md;  // only \\[click\\]: no link
  EXPECT_EQ(md.find("**loud**"), std::string::npos) << md;
  EXPECT_NE(md.find("&lt;img src=x onerror=alert(1)&gt; \\[click\\](javascript:alert(2)) \\*\\*loud\\*\\*"),
            std::string::npos)
      << md;
}

// A ledger with a UTF-8 byte-order mark lost its first entry silently (the mark became part of the
// kernel name); a kernel name with ESC or NUL was printed raw in the "not loaded" note.
TEST(OptionsAndTextCli, LedgerByteOrderMarkIsSkippedAndRawNamesAreRefused) {
  TempDir tmp;
  write(tmp / "bom.txt", "\xEF\xBB\xBFgguf.moe_vec legacy refused\n");
  const Result bom = run("run gguf.mmvq --static --device-preset sm_90 --ledger " + tmp / "bom.txt");
  EXPECT_EQ(bom.exit_code, 0) << bom.output;
  EXPECT_EQ(bom.output.find("not loaded here"), std::string::npos) << bom.output;
  write(tmp / "esc.txt", "gguf.moe_vec legacy refused\ngguf.\x1b[31mred legacy refused\n");
  expect_one_line(run("run gguf.mmvq --static --device-preset sm_90 --ledger " + tmp / "esc.txt"), 2, "esc.txt:2:");
  write(tmp / "nul.txt", std::string("gguf.moe\0vec legacy refused\n", 29));
  expect_one_line(run("run gguf.mmvq --static --device-preset sm_90 --ledger " + tmp / "nul.txt"), 2, "moe\\x00vec");
}

// Permission denied was exit 2 or 3 depending on the command. Now, as docs/RELIABILITY.md says: a
// path the user named that cannot be opened for reading is bad input (2); an output the system
// will not let gridfuzz create or write is the environment (3). Run as another user than the
// files' owner (nobody, through setpriv, when the tests run as root: root reads everything).
TEST(OptionsAndTextCli, PermissionDeniedIs2ForAnInputAnd3ForAnOutputInEveryCommand) {
  std::string as_other;
  if (geteuid() == 0) {
    if (access("/usr/bin/setpriv", X_OK) != 0) GTEST_SKIP() << "root, and no setpriv to run as another user";
    as_other = "/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups ";
  }
  TempDir tmp;
  const std::string b = csv_of(tmp);
  fs::copy_file(b, tmp / "unreadable.csv");
  fs::copy_file(b, tmp / "readonly.csv");
  fs::create_directory(tmp / "locked");
  const auto run_other = [&](const std::string& args) {
    Result r;
    const std::string cmd = as_other + GRIDFUZZ_BINARY + " " + args + " 2>&1";
    FILE* pipe = popen(cmd.c_str(), "r");
    char buf[4096];
    while (pipe && fgets(buf, sizeof buf, pipe)) r.output += buf;
    const int status = pipe ? pclose(pipe) : -1;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return r;
  };
  fs::permissions(tmp.path / "unreadable.csv", fs::perms::owner_write);  // nobody else reads it
  fs::permissions(tmp.path / "readonly.csv", fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  if (as_other.empty())
    fs::permissions(tmp.path / "locked", fs::perms::owner_read | fs::perms::owner_exec);  // no new file in it
  const std::string u = tmp / "unreadable.csv", locked = tmp / "locked/";
  const std::string q8 = "gguf.quantize_q8_1 --static --device-preset sm_90 ";
  for (const std::string& input : {"report " + u, "diff " + u + " " + b, "diff " + b + " " + u, "replay " + u + ":2",
                                   "run " + q8 + "--ledger " + u, "--plugin " + u + " list"})
    expect_one_line(run_other(input), 2, "Permission denied");
  for (const std::string& output :
       {"run " + q8 + "--csv " + locked + "x.csv", "sweep " + q8 + "--cases 1 --csv " + tmp / "readonly.csv",
        "limits --device-preset sm_90 --markdown " + locked + "x.md", "diff " + b + " " + b + " --junit " + locked + "x.xml",
        "devices --ctest-resource-spec " + locked + "x.json", "report " + b + " --no-plots --out " + locked + "rep"}) {
    const Result r = run_other(output);
    EXPECT_EQ(r.exit_code, 3) << output << "\n" << r.output;
    EXPECT_NE(r.output.find("gridfuzz: error: "), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("Permission denied"), std::string::npos) << r.output;
  }
  EXPECT_TRUE(fs::is_empty(tmp.path / "locked"));
  fs::permissions(tmp.path / "locked", fs::perms::owner_all);
}

}  // namespace
