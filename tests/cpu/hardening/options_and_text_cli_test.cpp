// Issue 34, item 7 (the smaller holes), through the real binary: options accepted that should not
// be, or silently ignored; text that reached the terminal or report.md raw; exit codes that
// differed by command. Each gets the contract's answer: exit 2 (bad input) or 3 (the environment)
// with one line, nothing run. No GPU needed.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "../../support/run_gridfuzz.hpp"

namespace fs = std::filesystem;

namespace {

using Result = gridfuzz::testing::CommandResult;

struct TempDir {
  fs::path path = fs::temp_directory_path() /
                  ("gridfuzz-options-text-" + std::to_string(getpid()) + "-" +
                   std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
  std::string operator/(const std::string& name) const { return (path / name).string(); }
};

Result run(const std::string& args) { return gridfuzz::testing::run_gridfuzz(args); }

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

void write(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

std::size_t lines_of(const std::string& text) {
  std::size_t n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

// Exit `code`, one line naming `needle`, no raw ESC.
void expect_one_line(const Result& r, int code, const std::string& needle) {
  EXPECT_EQ(r.exit_code, code) << r.output;
  EXPECT_EQ(lines_of(r.output), 1u) << r.output;
  EXPECT_NE(r.output.find(needle), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find('\x1b'), std::string::npos) << "raw ESC reached the terminal";
}

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
  expect_one_line(run(bisect + "--device-preset sm_90 --csv " + tmp / "b.csv"), 2, "writes no row");
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

}  // namespace
