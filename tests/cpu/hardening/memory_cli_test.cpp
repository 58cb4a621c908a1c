// Issue 34, item 6: memory bounded by a few facts a row, not the file. The readers stream (a row
// at a time, a record over 1 MiB or 1024 fields refused with its line), report and diff hold no
// rows, the writer's read of an existing --csv has the cap of every read, and `run` counts every
// expansion against its case cap. docs/RELIABILITY.md, "Memory: report and diff hold a few facts
// a row, not the rows".
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "../../support/cli_expect.hpp"
#include "../../support/run_gridfuzz.hpp"
#include "../../support/temp_dir.hpp"

namespace {

namespace fs = std::filesystem;
using gridfuzz::testing::expect_one_line;
using gridfuzz::testing::run_gridfuzz;
using gridfuzz::testing::slurp;
using gridfuzz::testing::TempDir;
using gridfuzz::testing::write;

struct Measured {
  int exit_code = -1;
  long peak_rss_kib = 0;  // the child's own peak resident set (wait4's ru_maxrss)
  std::string stderr_text;
};

// Runs gridfuzz with `args` (stdout to /dev/null) and measures its peak memory.
Measured run_measured(const std::vector<std::string>& args, const TempDir& tmp) {
  const std::string err = tmp / "stderr.txt";
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int out = ::open("/dev/null", O_WRONLY);
    const int errfd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(out, 1);
    ::dup2(errfd, 2);
    std::vector<char*> argv{const_cast<char*>(GRIDFUZZ_BINARY)};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(GRIDFUZZ_BINARY, argv.data());
    ::_exit(127);
  }
  Measured m;
  int status = 0;
  struct rusage usage {};
  if (pid < 0 || ::wait4(pid, &status, 0, &usage) != pid) return m;
  m.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  m.peak_rss_kib = usage.ru_maxrss;
  m.stderr_text = slurp(err);
  return m;
}

// A large CSV of valid rows: the rows of a real static run repeated, each with a new case id (the
// third field), until the file holds `bytes`. Returns its row count.
std::size_t write_large_csv(const TempDir& tmp, const std::string& name, std::size_t bytes) {
  const auto r = run_gridfuzz("run gguf.moe_vec --variant legacy,fixed --set tokens=8190:8194 --device-preset sm_90 "
                              "--static --csv " + tmp / "seed.csv");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  std::ifstream seed(tmp.path / "seed.csv");
  std::string header, line;
  std::getline(seed, header);
  std::vector<std::string> rows;
  while (std::getline(seed, line)) rows.push_back(line);
  EXPECT_FALSE(rows.empty());
  std::string text = header + "\n";
  text.reserve(bytes + 4096);
  std::size_t n = 0;
  while (text.size() < bytes && !rows.empty()) {
    const std::string& row = rows[n % rows.size()];
    const std::size_t id_at = row.find(',', row.find(',') + 1) + 1;  // schema,run_id,case_id,...
    const std::size_t id_end = row.find(',', id_at);
    char id[17];
    std::snprintf(id, sizeof id, "%016zx", n + 1);
    text.append(row, 0, id_at).append(id).append(row, id_end).append("\n");
    ++n;
  }
  write(tmp.path / name, text);
  return n;
}

// The old reader held the text, its records and 60-odd std::strings a row, then copied the rows
// to merge them: `report` of this 40 MiB CSV peaked at 1033 MiB, `diff` of two copies at 1358 MiB
// (2026-12-03). Packed rows took that to 169 and 241 MiB, about 4 times the file. Now neither holds
// the rows: where each row is and a few bytes of facts a row (row_files.hpp, row_facts.hpp),
// the rows read again when visited: report 22 MiB, diff 34 MiB, and of a 1 GB CSV 394 and 607 MiB
// (docs/RELIABILITY.md). The bounds, half the input and 24 MiB, leave room above that and none for
// the packed rows.
TEST(MemoryCli, ReportAndDiffOfALargeCsvHoldLessThanItsRows) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "under AddressSanitizer the peak RSS is mostly its shadow memory; the Release suite measures it";
#endif
  TempDir tmp;
  constexpr std::size_t kBytes = 40u << 20;
  const std::size_t rows = write_large_csv(tmp, "large.csv", kBytes);
  fs::copy_file(tmp.path / "large.csv", tmp.path / "current.csv");
  ASSERT_GT(rows, 80000u);

  const long input_kib = static_cast<long>(kBytes >> 10);
  const auto started = std::chrono::steady_clock::now();
  const Measured report = run_measured({"report", tmp / "large.csv"}, tmp);
  EXPECT_EQ(report.exit_code, 0) << report.stderr_text;
  EXPECT_LT(report.peak_rss_kib, input_kib / 2 + 24 * 1024) << "report of " << rows << " rows";

  // With --out: junit.xml, a testcase a row (28 MiB here), is written as it is made.
  const Measured folder = run_measured({"report", tmp / "large.csv", "--out", tmp / "report", "--no-plots"}, tmp);
  EXPECT_EQ(folder.exit_code, 0) << folder.stderr_text;
  EXPECT_GT(fs::file_size(tmp.path / "report/junit.xml"), kBytes / 2);
  EXPECT_LT(folder.peak_rss_kib, input_kib / 2 + 24 * 1024) << "report --out of " << rows << " rows";

  const Measured diff = run_measured({"diff", tmp / "large.csv", tmp / "current.csv"}, tmp);
  EXPECT_EQ(diff.exit_code, 0) << diff.stderr_text;
  EXPECT_LT(diff.peak_rss_kib, 2 * input_kib / 2 + 24 * 1024) << "diff of twice " << rows << " rows";
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::printf("report of %zu rows (%zu MiB): %ld MiB peak, with --out %ld MiB; diff of two: %ld MiB peak; %.1f s "
              "together\n",
              rows, kBytes >> 20, report.peak_rss_kib >> 10, folder.peak_rss_kib >> 10, diff.peak_rss_kib >> 10,
              seconds);
}

// "300 MB of commas: 17 GB before being refused": a record is refused at 1024 fields or 1 MiB,
// with its line, by every reader (report, diff, replay, merge, accept, a resumed --csv).
TEST(MemoryCli, ARecordOverTheCapIsRefusedWithItsLine) {
  TempDir tmp;
  write_large_csv(tmp, "good.csv", 1);  // the header and one row
  const std::string header = slurp(tmp.path / "good.csv").substr(0, slurp(tmp.path / "good.csv").find('\n') + 1);
  write(tmp.path / "commas.csv", header + "1.5" + std::string(4u << 20, ',') + "\n");
  write(tmp.path / "field.csv", header + "1.5," + std::string(2u << 20, 'x') + "\n");
  write(tmp.path / "quoted.csv", header + "1.5,\"" + std::string(2u << 20, 'x') + "\"\n");
  for (const std::string file : {"commas.csv", "field.csv", "quoted.csv"}) {
    const std::string path = tmp / file;
    const std::string size_before = std::to_string(fs::file_size(path));
    expect_one_line(run_gridfuzz("report " + path), 2, path + ":2: row ");
    expect_one_line(run_gridfuzz("diff " + path + " " + tmp / "good.csv"), 2, ":2: row ");
    expect_one_line(run_gridfuzz("replay " + path), 2, ":2: row ");
    expect_one_line(run_gridfuzz("merge " + tmp / "merged.csv " + path), 2, ":2: row ");
    expect_one_line(run_gridfuzz("run gguf.moe_vec --variant legacy --set tokens=8 --static --device-preset sm_90 "
                                 "--csv " + path),
                    2, ":2: row ");
    EXPECT_EQ(std::to_string(fs::file_size(path)), size_before);
  }
  EXPECT_FALSE(fs::exists(tmp.path / "merged.csv"));
  EXPECT_NE(run_gridfuzz("report " + tmp / "commas.csv").output.find("more than 1024 fields"), std::string::npos);
  EXPECT_NE(run_gridfuzz("report " + tmp / "field.csv").output.find("longer than 1048576 bytes"), std::string::npos);
}

// "The CSV writer reads an existing --csv with no size cap (a 3 GiB sparse file: 7.1 GB)": the
// writer's read has the cap of every read, checked before reading, and the file is left as it is.
TEST(MemoryCli, AnExistingCsvOverTheReadCapIsRefusedAndLeftAsItIs) {
  TempDir tmp;
  const fs::path big = tmp.path / "big.csv";
  { std::ofstream(big) << "schema,"; }
  fs::resize_file(big, (std::uintmax_t{1} << 30) + 1);  // sparse: no disk used
  struct stat before {};
  ASSERT_EQ(::stat(big.c_str(), &before), 0);
  const std::string csv = " --csv " + big.string();
  for (const std::string command :
       {"run gguf.moe_vec --variant legacy --set tokens=8 --static --device-preset sm_90" + csv,  // appends
        "sweep gguf.quantize_q8_1 --static --device-preset sm_90 --cases 1" + csv,               // sets aside
        "sweep gguf.quantize_q8_1 --static --device-preset sm_90 --cases 1 --resume" + csv}) {
    const auto started = std::chrono::steady_clock::now();
    const auto r = run_gridfuzz(command);
    expect_one_line(r, 2, "more than the 1073741824 bytes gridfuzz reads");
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), 5.0)
        << "refused before reading: " << command;
    struct stat after {};
    ASSERT_EQ(::stat(big.c_str(), &after), 0);
    EXPECT_EQ(after.st_size, before.st_size) << command;
    EXPECT_EQ(after.st_mtim.tv_sec, before.st_mtim.tv_sec) << command;
    EXPECT_EQ(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec) << command;
  }
  std::size_t others = 0;
  for (const auto& entry : fs::directory_iterator(tmp.path)) others += entry.path() != big;
  EXPECT_EQ(others, 0u) << "no set-aside copy, no temporary file";
}

// "`run gguf.moe_vec --model all --set tokens=1:100000` passes the 100,000-case cap: 7,000,000
// cases, 9.0 GB": the cap counts model shapes x --set values x variants, before making a case.
TEST(MemoryCli, RunCountsEveryExpansionAgainstTheCaseCap) {
  for (const std::string args : {"--model all --set tokens=1:100000", "--variant legacy,fixed --set tokens=1:50001",
                                 "--set tokens=1:1000 --set top_k=1:1000"}) {
    const auto started = std::chrono::steady_clock::now();
    const auto r = run_gridfuzz("run gguf.moe_vec --static --device-preset sm_90 " + args);
    expect_one_line(r, 2, "more than the 100000 one run makes");
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), 5.0) << args;
  }
}

}  // namespace
