// Issue 34, items 3 and 7: a time budget holds whatever the plan costs (planning counts and
// streams), and a closed stdout pipe (`gridfuzz list | head -1`) ends gridfuzz quietly instead of
// killing it, the CSV whole and resumable. Run against the gridfuzz binary, no GPU.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "../../support/run_gridfuzz.hpp"
#include "../../support/temp_dir.hpp"
#include "gridfuzz/reports/csv_reader.hpp"

namespace fs = std::filesystem;
using gridfuzz::testing::TempDir;

namespace {

struct Ended {
  bool killed = false;  // by a signal
  int code = -1;        // exit status or signal number
  std::string err;      // stderr
};

// gridfuzz with `args`, its stdout a pipe whose reader is gone before it starts (what `| head -1`
// becomes once head has its line), SIGPIPE at its default as a shell leaves it.
Ended run_with_stdout_unread(const std::vector<std::string>& args, const fs::path& err_file) {
  int fds[2];
  if (pipe(fds) != 0) return {};
  close(fds[0]);
  std::vector<std::string> line{GRIDFUZZ_BINARY};
  line.insert(line.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : line) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t child = fork();
  if (child == 0) {
    dup2(fds[1], STDOUT_FILENO);
    const int err = open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(err, STDERR_FILENO);
    signal(SIGPIPE, SIG_DFL);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(fds[1]);
  int status = 0;
  waitpid(child, &status, 0);
  Ended e;
  e.killed = WIFSIGNALED(status);
  e.code = e.killed ? WTERMSIG(status) : WEXITSTATUS(status);
  e.err = gridfuzz::testing::slurp(err_file);
  return e;
}

std::vector<std::string> split(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

std::multiset<std::string> case_ids(const fs::path& csv) {
  std::multiset<std::string> ids;
  for (const auto& row : gridfuzz::reports::read_csv(csv).rows) ids.insert(row.get("case_id"));
  return ids;
}

}  // namespace

// `gridfuzz list | head -1` died of SIGPIPE (exit 141 by a signal).
TEST(BudgetAndPipeCli, AClosedStdoutPipeEndsListQuietlyWith141) {
  TempDir tmp;
  const Ended e = run_with_stdout_unread({"list"}, tmp.path / "err");
  EXPECT_FALSE(e.killed) << "killed by signal " << e.code;
  EXPECT_EQ(e.code, 141);
  EXPECT_EQ(e.err, "") << "quietly: no message";
}

// `gridfuzz sweep | head` stops at its next row line: the CSV keeps whole rows, and --resume
// finishes the sweep with every case once.
TEST(BudgetAndPipeCli, AClosedStdoutPipeEndsASweepQuietlyAndItsCsvResumes) {
  TempDir tmp;
  const std::string sweep = "sweep gguf.quantize_q8_1 --static --device-preset sm_90 --model none --cases 200 --csv ";
  const Ended e = run_with_stdout_unread(split(sweep + tmp / "cut.csv"), tmp.path / "err");
  EXPECT_FALSE(e.killed) << "killed by signal " << e.code;
  EXPECT_EQ(e.code, 141) << e.err;
  EXPECT_EQ(e.err.find("error"), std::string::npos) << e.err;
  const auto cut = case_ids(tmp.path / "cut.csv");  // read_csv refuses a cut row
  const auto whole_run = gridfuzz::testing::run_gridfuzz(sweep + tmp / "whole.csv");
  ASSERT_EQ(whole_run.exit_code, 0) << whole_run.output;
  const auto whole = case_ids(tmp.path / "whole.csv");
  EXPECT_GE(cut.size(), 1u);
  EXPECT_LT(cut.size(), whole.size()) << "the sweep stopped when nobody read on";

  const auto resumed = gridfuzz::testing::run_gridfuzz(sweep + tmp / "cut.csv --resume");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_EQ(case_ids(tmp.path / "cut.csv"), whole) << "every case once, none lost";
}
