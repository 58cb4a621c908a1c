// The reproductions of issue 19, run against the gridfuzz binary as a user (or an attacker) would:
// each gets exit 2 (bad input) with a one-line message, runs no command, renames or changes
// nothing that is not a gridfuzz CSV, and reuses no row of another device. No GPU needed: every
// command judges against --device-preset or --static.
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "../../support/run_gridfuzz.hpp"
#include "../../support/temp_dir.hpp"
#include "gridfuzz/reports/csv_reader.hpp"
#include "gridfuzz/reports/schema.hpp"

namespace fs = std::filesystem;

namespace {

using Result = gridfuzz::testing::CommandResult;

using gridfuzz::testing::TempDir;
using gridfuzz::testing::slurp;
using gridfuzz::testing::write;

Result run(const std::string& args) { return gridfuzz::testing::run_gridfuzz(args); }

std::size_t backups_in(const fs::path& dir) {
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(dir)) n += e.path().extension() == ".bak";
  return n;
}

// A real gridfuzz CSV: static rows of moe_vec legacy at two token counts.
std::string good_csv(const TempDir& tmp, const std::string& name = "good.csv") {
  const Result r = run("run gguf.moe_vec --variant legacy --set tokens=8191,8192 --device-preset sm_90 --static --csv " +
                       tmp / name);
  EXPECT_EQ(r.exit_code, 0) << r.output;  // static rows fail nothing
  return slurp(tmp.path / name);
}

// The CSV with the first data row's kernel field replaced by `field` (quoted as RFC 4180 wants).
std::string with_kernel_field(const std::string& csv, const std::string& field) {
  const std::size_t row = csv.find('\n') + 1;
  const std::size_t at = csv.find(",gguf.moe_vec,", row);
  std::string quoted = "\"";
  for (char c : field) quoted += (c == '"') ? std::string("\"\"") : std::string(1, c);
  quoted += "\"";
  return csv.substr(0, at + 1) + quoted + csv.substr(at + 1 + std::string("gguf.moe_vec").size());
}

void expect_one_line_error(const Result& r, int code, const std::string& needle) {
  EXPECT_EQ(r.exit_code, code) << r.output;
  EXPECT_NE(r.output.find(needle), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find('\x1b'), std::string::npos) << "raw ESC reached the terminal";
}

// 1. A CSV field never runs a command through the plot scripts.
TEST(Hardening, CsvFieldCannotRunACommandThroughReport) {
  TempDir tmp;
  const std::string csv = good_csv(tmp);
  const std::string witness = tmp / "PWNED";
  write(tmp.path / "evil.csv", with_kernel_field(csv, "gguf.moe_vec\n!touch " + witness + "\n"));
  expect_one_line_error(run("report " + tmp / "evil.csv" + " --out " + tmp / "rep"), 2, "control character");
  EXPECT_FALSE(fs::exists(witness));
  // A row of a newer schema minor is not checked for vocabulary, but its text still is.
  std::string newer = with_kernel_field(csv, "gguf.moe_vec\n!touch " + witness + "\n");
  newer.replace(newer.find("\n" + std::string(gridfuzz::reports::kSchemaVersion) + ",") + 1, 3, "1.9");
  write(tmp.path / "newer.csv", newer);
  expect_one_line_error(run("report " + tmp / "newer.csv" + " --out " + tmp / "rep2"), 2, "control character");
  EXPECT_FALSE(fs::exists(witness));
}

TEST(Hardening, EscapeSequencesAndNulBytesAreShownNotSent) {
  TempDir tmp;
  const std::string csv = good_csv(tmp);
  write(tmp.path / "esc.csv", with_kernel_field(csv, "\x1b]0;owned\x07\x1b[2J"));
  expect_one_line_error(run("report " + tmp / "esc.csv"), 2, "\\x1B");
  write(tmp.path / "nul.csv", with_kernel_field(csv, std::string("before\0after", 12)));
  const Result nul = run("diff " + tmp / "nul.csv" + " " + tmp / "good.csv");
  expect_one_line_error(nul, 2, "before\\x00after");
}

// 2. `sweep --csv PATH` changes nothing that is not a gridfuzz CSV, and takes the lock first.
TEST(Hardening, SweepNeverMovesWhatIsNotAGridfuzzCsv) {
  TempDir tmp;
  fs::create_directories(tmp.path / "dir");
  write(tmp.path / "dir" / "keep.txt", "mine");
  write(tmp.path / "notes.txt", "my notes\n");
  for (const std::string& target : {tmp / "dir", tmp / "notes.txt", std::string("/dev/null")}) {
    const Result r = run("sweep gguf.quantize_q8_1 --static --device-preset sm_90 --cases 1 --csv " + target);
    EXPECT_EQ(r.exit_code, 2) << target << "\n" << r.output;
  }
  EXPECT_EQ(slurp(tmp.path / "dir" / "keep.txt"), "mine");
  EXPECT_EQ(slurp(tmp.path / "notes.txt"), "my notes\n");
  ASSERT_EQ(mkfifo((tmp / "fifo").c_str(), 0600), 0);
  EXPECT_EQ(run("sweep gguf.quantize_q8_1 --static --device-preset sm_90 --cases 1 --csv " + tmp / "fifo").exit_code, 2);
  EXPECT_EQ(backups_in(tmp.path), 0u);
  // run and bisect append: the same refusal, exit 2 (was 3).
  EXPECT_EQ(run("run gguf.quantize_q8_1 --static --device-preset sm_90 --csv " + tmp / "notes.txt").exit_code, 2);
  EXPECT_EQ(slurp(tmp.path / "notes.txt"), "my notes\n");
}

TEST(Hardening, SweepSetsAGridfuzzCsvAsideByCopyAndNeverTakesALockedOne) {
  TempDir tmp;
  const std::string csv = good_csv(tmp, "r.csv");
  const std::string sweep = "sweep gguf.quantize_q8_1 --static --device-preset sm_90 --cases 1 --csv " + tmp / "r.csv";
  // Another writer holds it: nothing is copied, moved or written.
  const int fd = ::open((tmp / "r.csv").c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX), 0);
  expect_one_line_error(run(sweep), 2, "locked");
  EXPECT_EQ(slurp(tmp.path / "r.csv"), csv);
  EXPECT_EQ(backups_in(tmp.path), 0u);
  ::close(fd);
  // Free: the old rows are copied to a .bak, the file starts again as a new sweep's CSV.
  const Result r = run(sweep);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  ASSERT_EQ(backups_in(tmp.path), 1u);
  for (const auto& e : fs::directory_iterator(tmp.path))
    if (e.path().extension() == ".bak") {
      EXPECT_EQ(slurp(e.path()), csv);
    }
  for (const auto& row : gridfuzz::reports::read_csv(tmp.path / "r.csv").rows)
    EXPECT_EQ(row.get("kernel"), "gguf.quantize_q8_1");
}

// 3. Rows judged on one device are never reused for another.
TEST(Hardening, ResumeRefusesTheRowsOfAnotherDevice) {
  TempDir tmp;
  const std::string sweep = "sweep gguf.quantize_q8_1 --static --cases 2 --csv " + tmp / "r.csv";
  ASSERT_EQ(run(sweep + " --device-preset sm_75").exit_code, 0);
  const std::string before = slurp(tmp.path / "r.csv");
  expect_one_line_error(run(sweep + " --device-preset sm_90 --resume"), 2, "judged on");
  EXPECT_EQ(slurp(tmp.path / "r.csv"), before);
  // The same device resumes: every case already done.
  const Result same = run(sweep + " --device-preset sm_75 --resume");
  EXPECT_EQ(same.exit_code, 0) << same.output;
  EXPECT_NE(same.output.find("0 case(s) run"), std::string::npos) << same.output;
  EXPECT_EQ(slurp(tmp.path / "r.csv"), before);
}

// 4. The time budget counts from the start, planning included; boundary rows come first.
TEST(Hardening, TimeBudgetEndsAHugeSweepWithItsBoundaryRows) {
  TempDir tmp;
  const auto t0 = std::chrono::steady_clock::now();
  // 15 s: planning the boundaries counts too (at most half the budget, a start shape begun planned
  // whole), and takes seconds in the sanitizer build. From the defaults alone (--model none) and
  // --crossings-as-found, the one start shape that holds this boundary is planned well within it.
  const Result r = run("sweep gguf.moe_vec --static --device-preset sm_90 --model none --crossings-as-found --cases 100000 --time-budget 15 "
                       "--csv " + tmp / "r.csv");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_LT(seconds, 60.0) << r.output;
  EXPECT_NE(r.output.find("time budget of 15 s reached"), std::string::npos) << r.output;
  bool boundary = false;
  for (const auto& row : gridfuzz::reports::read_csv(tmp.path / "r.csv").rows)
    boundary = boundary || (row.get("variant") == "legacy" && row.get("tokens") == "8192" && row.get("top_k") == "8");
  EXPECT_TRUE(boundary) << "the legacy boundary at tokens 8192, top_k 8 was not written";
}

// 3. Planning is inside the budget: with every kernel family this build has (planning them all
// takes about 35 s on 2 cores), a 5-second budget stops planning at half of it and writes
// boundary rows before it ends.
TEST(Hardening, AFiveSecondBudgetWritesBoundaryRowsWithinSixSecondsWhateverIsBuilt) {
  TempDir tmp;
  const auto t0 = std::chrono::steady_clock::now();
  const Result r = run("sweep --static --device-preset sm_90 --cases 100000 --time-budget 5 --csv " + tmp / "r.csv");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.exit_code, 0) << r.output;
#if defined(__SANITIZE_ADDRESS__)
  // One start shape, once begun, is planned whole: under ASan one of gguf.moe_vec's takes seconds.
  EXPECT_LT(seconds, 15.0) << r.output;
#else
  EXPECT_LT(seconds, 6.0) << r.output;
#endif
  EXPECT_NE(r.output.find("time budget of 5 s reached"), std::string::npos) << r.output;
  std::size_t boundary = 0;
  for (const auto& row : gridfuzz::reports::read_csv(tmp.path / "r.csv").rows) boundary += row.get("tier") != "random";
  EXPECT_GT(boundary, 0u) << r.output;
}

// 6. Inputs that never end, or are not files, are refused at once.
TEST(Hardening, FilesThatAreNotFilesOrAreTooLargeAreRefused) {
  TempDir tmp;
  expect_one_line_error(run("report /dev/zero"), 2, "not a regular file");
  expect_one_line_error(run("diff /dev/zero /dev/zero"), 2, "not a regular file");
  expect_one_line_error(run("run gguf.mmvq --device-preset sm_90 --static --ledger /dev/zero"), 2, "not a regular file");
  expect_one_line_error(run("run gguf.mmvq --device-preset sm_90 --static --ledger " + tmp.path.string()), 2,
                        "directory");
  {
    std::ofstream big(tmp.path / "big.csv");
  }
  fs::resize_file(tmp.path / "big.csv", (std::uintmax_t{1} << 30) + 1);  // sparse: no disk used
  expect_one_line_error(run("report " + tmp / "big.csv"), 2, "more than");
}

// 7. Numbers are range-checked before anything is touched.
TEST(Hardening, NumericOptionsOutOfRangeAreExit2AndTouchNothing) {
  TempDir tmp;
  const std::string csv = good_csv(tmp, "r.csv");
  const std::string sweep = "sweep gguf.quantize_q8_1 --static --device-preset sm_90 --csv " + tmp / "r.csv" + " ";
  for (const std::string bad : {"--cases -1", "--cases 2147483648", "--cases 99999999999999999999", "--cases 4294967296",
                                "--cases 1e3", "--seed -1", "--seed 18446744073709551616", "--time-budget -5",
                                "--time-budget nan", "--time-budget inf", "--time-budget 1e10", "--time-budget 1e300",
                                "--budget-mib -1", "--timeout 0", "--timeout 1e10",
                                "--timeout nan", "--reference-samples -1", "--self-check-share -0.1",
                                "--self-check-share 1.5", "--self-check-share nan", "--self-check-share inf",
                                "--self-check-share 5%", "--self-check-share ''"}) {
    const Result r = run(sweep + bad);
    EXPECT_EQ(r.exit_code, 2) << bad << "\n" << r.output;
  }
  EXPECT_EQ(slurp(tmp.path / "r.csv"), csv);
  EXPECT_EQ(backups_in(tmp.path), 0u);
}

// --self-check-share takes a share in [0, 1]; its default is small for the commands that run many
// cases and 1 for replay (every replayed case is compared with its own second call).
TEST(Hardening, SelfCheckShareIsAShareAndReplaySelfChecksEveryCase) {
  TempDir tmp;
  for (const std::string good : {"0", "0.05", "1", "1e-3"}) {
    const Result r = run("sweep gguf.quantize_q8_1 --static --device-preset sm_90 --cases 2 --self-check-share " + good +
                         " --csv " + tmp / ("s" + good + ".csv"));
    EXPECT_EQ(r.exit_code, 0) << good << "\n" << r.output;
  }
  const Result run_help = run("run --help");
  EXPECT_NE(run_help.output.find("--self-check-share"), std::string::npos) << run_help.output;
  EXPECT_NE(run_help.output.find("(default 0.02)"), std::string::npos) << run_help.output;
  const Result replay_help = run("replay --help");
  EXPECT_NE(replay_help.output.find("(default 1)"), std::string::npos) << replay_help.output;
}

// Issue 34, item 2: a closed stdout or stderr (cron, systemd) never lets console lines into the CSV.
TEST(Hardening, ClosedStandardStreamsNeverLandInTheCsv) {
  TempDir tmp;
  for (const std::string closed : {">&-", "2>&-", ">&- 2>&-", "<&- >&-"}) {
    const std::string csv = tmp / "closed.csv";
    fs::remove(csv);
    const std::string command = std::string(GRIDFUZZ_BINARY) +
                                " run gguf.moe_vec --variant legacy,fixed --set tokens=8191,8192 --device-preset sm_90 "
                                "--static --csv " + csv + " " + closed;
    const int status = std::system(command.c_str());
    EXPECT_TRUE(WIFEXITED(status)) << closed;
    const auto rows = gridfuzz::reports::read_csv(csv).rows;  // throws on a line that is not a row
    EXPECT_EQ(rows.size(), 4u) << closed;
  }
}

// Issue 34, item 4: a write to stdout that fails is exit 3 with a message, never a silent 0.
TEST(Hardening, FailedWritesToStdoutAreExit3) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full on this machine";
  for (const std::string args : {"list", "list --json", "models", "plan --grid 1,1,65536 --block 32 --device-preset sm_90",
                                 "limits --device-preset sm_90"}) {
    // stderr to the pipe, then stdout to the full device.
    const std::string command = std::string(GRIDFUZZ_BINARY) + " " + args + " 2>&1 >/dev/full";
    Result r;
    FILE* pipe = popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    char buf[4096];
    while (fgets(buf, sizeof buf, pipe)) r.output += buf;
    const int status = pclose(pipe);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    EXPECT_EQ(r.exit_code, 3) << args << "\n" << r.output;
    EXPECT_NE(r.output.find("writing standard output failed"), std::string::npos) << args << "\n" << r.output;
  }
}

// 8. Bad input is exit 2, with file:line where there is one.
TEST(Hardening, BadInputIsExit2NotTheEnvironment) {
  TempDir tmp;
  expect_one_line_error(
      run("bisect gguf.moe_vec --variant nope --axis tokens --static --device-preset sm_90"), 2, "no variant 'nope'");
  expect_one_line_error(run("bisect gguf.moe_vec --axis tokens --range abc --static --device-preset sm_90"), 2,
                        "--range");
  write(tmp.path / "file", "x");
  const std::string csv = good_csv(tmp, "r.csv");
  expect_one_line_error(run("report " + tmp / "r.csv" + " --out " + tmp / "file"), 2, "not a folder");
  // A row of a newer minor with a malformed number: file and line in the message.
  std::string newer = csv;
  const std::size_t row = newer.find("\n" + std::string(gridfuzz::reports::kSchemaVersion) + ",") + 1;
  newer.replace(row, 3, "1.9");
  const std::size_t tokens_field = newer.find(",8191,", row);
  newer.replace(tokens_field, 6, ",8x91,");
  write(tmp.path / "newer.csv", newer);
  expect_one_line_error(run("report " + tmp / "newer.csv"), 2, "newer.csv:2:");
  // --resume on a CSV that is not one: 2 like report and diff (was 3).
  write(tmp.path / "bad.csv", "schema,foo\n2.0,x\n");
  EXPECT_EQ(run("sweep gguf.mmvq --static --device-preset sm_90 --resume --csv " + tmp / "bad.csv").exit_code, 2);
}

// 9. What was silently accepted.
TEST(Hardening, UnknownPresetsLedgerVariantsAndDuplicateCasesAreCaught) {
  TempDir tmp;
  expect_one_line_error(run("--device-preset sm_999 list"), 2, "unknown preset 'sm_999'");
  write(tmp.path / "ledger.txt", "gguf.moe_vec nope refused\n");
  expect_one_line_error(run("run gguf.mmvq --static --device-preset sm_90 --ledger " + tmp / "ledger.txt"), 2,
                        "ledger.txt:1:");
  write(tmp.path / "plugin-ledger.txt", "some.plugin_kernel legacy refused\n");
  const Result unknown = run("run gguf.mmvq --static --device-preset sm_90 --ledger " + tmp / "plugin-ledger.txt");
  EXPECT_EQ(unknown.exit_code, 0) << unknown.output;
  EXPECT_NE(unknown.output.find("not loaded here"), std::string::npos) << unknown.output;
  const Result r = run("run gguf.mmvq --variant fixed --set nvecs=5,5,5 --static --device-preset sm_90 --csv " +
                       tmp / "dup.csv");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(gridfuzz::reports::read_csv(tmp.path / "dup.csv").rows.size(), 1u);
}

// 10. Static rows leave empty what SCHEMA.md says stays empty.
TEST(Hardening, StaticRowsLeaveRunOnlyColumnsEmpty) {
  TempDir tmp;
  good_csv(tmp, "r.csv");
  for (const auto& row : gridfuzz::reports::read_csv(tmp.path / "r.csv").rows) {
    EXPECT_EQ(row.get("verdict"), "static");
    for (const char* column : {"seed", "max_abs_err", "mismatches", "samples", "time_ms_median"})
      EXPECT_TRUE(row.is_empty(column)) << column << " = " << row.get(column);
  }
}

}  // namespace
