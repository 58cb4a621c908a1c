// Issue 34: the files gridfuzz writes, attacked through the real binary. An output option never
// names an input of its command or a file of another kind, never writes through a link someone
// planted, and a failed write is exit 3 with a message (docs/RELIABILITY.md, "Files gridfuzz
// writes"). No GPU needed: every command judges against --device-preset or --static.
#include <gtest/gtest.h>
#include <sys/stat.h>
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
using gridfuzz::testing::run_gridfuzz_after;
using gridfuzz::testing::slurp;
using gridfuzz::testing::write;

Result run(const std::string& args) { return gridfuzz::testing::run_gridfuzz(args); }

// Exit `code` with a message naming `needle` (after the command's output: the write is its end).
void expect_error(const Result& r, int code, const std::string& needle) {
  EXPECT_EQ(r.exit_code, code) << r.output;
  EXPECT_NE(r.output.find("gridfuzz: error: " + needle), std::string::npos) << r.output;
}

// A baseline and a current CSV of static rows (they compare: exit 0).
void two_csvs(const TempDir& tmp) {
  const Result r = run("run gguf.moe_vec --variant legacy --set tokens=8191,8192 --device-preset sm_90 --static --csv " +
                       tmp / "B.csv");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  fs::copy_file(tmp / "B.csv", tmp / "C.csv");
}

std::size_t entries_in(const fs::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}

// `diff B C --junit B` replaced the baseline with XML (exit 0); `limits --markdown x.csv` too.
TEST(OutputFilesCli, AnOutputNeverReplacesAnInputOrAFileOfAnotherKind) {
  TempDir tmp;
  two_csvs(tmp);
  const std::string baseline = slurp(tmp / "B.csv");
  const std::string base = tmp / "B.csv", current = tmp / "C.csv";
  expect_one_line(run("diff " + base + " " + current + " --junit " + base), 2, "the baseline");
  expect_one_line(run("diff " + base + " " + current + " --junit " + current), 2, "the current CSV");
  // The same file by another name.
  fs::create_hard_link(tmp / "B.csv", tmp / "hard.csv");
  expect_one_line(run("diff " + base + " " + current + " --junit " + tmp / "hard.csv"), 2, "the baseline");
  fs::create_directory_symlink(tmp.path, tmp / "alias");
  expect_one_line(run("diff " + base + " " + current + " --junit " + tmp / "alias/B.csv"), 2, "the baseline");
  EXPECT_EQ(slurp(tmp / "B.csv"), baseline);
  // Files gridfuzz did not write there.
  write(tmp / "x.csv", "my data\n");
  expect_one_line(run("limits --device-preset sm_90 --markdown " + tmp / "x.csv"), 2, "x.csv");
  expect_one_line(run("diff " + base + " " + current + " --junit " + tmp / "x.csv"), 2, "x.csv");
  expect_one_line(run("devices --ctest-resource-spec " + tmp / "x.csv"), 2, "x.csv");
  EXPECT_EQ(slurp(tmp / "x.csv"), "my data\n");
  // Its own outputs are replaced; so is an empty file (mktemp's).
  for (const char* name : {"gate.xml", "limits.md", "spec.json"}) write(tmp / name, "");
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(run("diff " + base + " " + current + " --junit " + tmp / "gate.xml").exit_code, 0);
    EXPECT_EQ(run("limits --device-preset sm_90 --markdown " + tmp / "limits.md").exit_code, 0);
    EXPECT_EQ(run("devices --ctest-resource-spec " + tmp / "spec.json").exit_code, 0);
  }
  EXPECT_EQ(slurp(tmp / "gate.xml").find("<?xml"), 0u);
  EXPECT_EQ(slurp(tmp / "limits.md").find("| boundary |"), 0u);
  EXPECT_EQ(slurp(tmp / "spec.json").find("{"), 0u);
  // A JUnit of the report may be replaced by the gate's (both are gridfuzz's JUnit).
  EXPECT_EQ(run("report " + base + " --no-plots --out " + tmp / "rep").exit_code, 0);
  fs::copy_file(tmp.path / "rep" / "junit.xml", tmp.path / "report-junit.xml");
  EXPECT_EQ(run("diff " + base + " " + current + " --junit " + tmp / "report-junit.xml").exit_code, 0);
}

// A link planted where an output goes was followed: its target overwritten, or created.
TEST(OutputFilesCli, NoOutputIsWrittenThroughALink) {
  TempDir tmp;
  two_csvs(tmp);
  const std::string base = tmp / "B.csv", current = tmp / "C.csv";
  // The target holds what gridfuzz would replace: only the link stands in the way.
  ASSERT_EQ(run("limits --device-preset sm_90 --markdown " + tmp / "victim.md").exit_code, 0);
  const std::string victim = slurp(tmp / "victim.md");
  fs::create_symlink(tmp / "victim.md", tmp / "link.md");
  expect_one_line(run("limits --device-preset sm_90 --markdown " + tmp / "link.md"), 2, "symbolic link");
  fs::create_symlink(tmp / "created.xml", tmp / "dangling.xml");
  expect_one_line(run("diff " + base + " " + current + " --junit " + tmp / "dangling.xml"), 2, "symbolic link");
  fs::create_symlink(tmp / "created.json", tmp / "dangling.json");
  expect_one_line(run("devices --ctest-resource-spec " + tmp / "dangling.json"), 2, "symbolic link");
  EXPECT_EQ(slurp(tmp / "victim.md"), victim);
  EXPECT_FALSE(fs::exists(tmp / "created.xml"));
  EXPECT_FALSE(fs::exists(tmp / "created.json"));
  // A link to a device or a pipe is written through: /dev/stdout, /dev/null.
  fs::create_symlink("/dev/null", tmp / "null.xml");
  EXPECT_EQ(run("diff " + base + " " + current + " --junit " + tmp / "null.xml").exit_code, 0);
  const Result to_stdout = run("limits --device-preset sm_90 --markdown /dev/stdout");
  EXPECT_EQ(to_stdout.exit_code, 0) << to_stdout.output;
}

// Write errors on output files were ignored: `limits --markdown /dev/full` was exit 0, a full disk
// on --junit exit 2.
TEST(OutputFilesCli, AFailedWriteOfAnOutputIsExit3) {
  TempDir tmp;
  two_csvs(tmp);
  const std::string base = tmp / "B.csv", current = tmp / "C.csv";
  expect_error(run("limits --device-preset sm_90 --markdown /dev/full"), 3, "--markdown '/dev/full': write error: No space");
  expect_error(run("diff " + base + " " + current + " --junit /dev/full"), 3, "--junit '/dev/full': write error: No space");
  expect_error(run("devices --ctest-resource-spec /dev/full"), 3, "--ctest-resource-spec '/dev/full': write error");
  // A full disk, as a file-size limit: every write to a regular file fails.
  const std::size_t before = entries_in(tmp.path);
  const Result full = run_gridfuzz_after("ulimit -f 0", "diff " + base + " " + current + " --junit " + tmp / "gate.xml");
  expect_error(full, 3, "--junit '" + tmp / "gate.xml" + "': write error: File too large");
  EXPECT_EQ(entries_in(tmp.path), before) << "a half-written output or a temporary file was left";
  const Result md = run_gridfuzz_after("ulimit -f 0", "limits --device-preset sm_90 --markdown " + tmp / "limits.md");
  EXPECT_EQ(md.exit_code, 3) << md.output;
  EXPECT_EQ(entries_in(tmp.path), before);
}

}  // namespace

namespace {

// `sweep --csv LINK` followed the link: a gridfuzz CSV elsewhere was set aside and emptied, a
// dangling link's target created.
TEST(OutputFilesCli, ACsvIsNeverWrittenThroughALink) {
  TempDir tmp;
  two_csvs(tmp);
  const std::string victim = slurp(tmp / "B.csv");
  fs::create_symlink(tmp / "B.csv", tmp / "link.csv");
  const std::string sweep = "sweep gguf.quantize_q8_1 --static --device-preset sm_90 --cases 1 --csv ";
  expect_one_line(run(sweep + tmp / "link.csv"), 2, "symbolic link");
  expect_one_line(run(sweep + tmp / "link.csv --resume"), 2, "symbolic link");
  expect_one_line(run("run gguf.quantize_q8_1 --static --device-preset sm_90 --csv " + tmp / "link.csv"), 2,
                  "symbolic link");
  EXPECT_EQ(slurp(tmp / "B.csv"), victim);
  fs::create_symlink(tmp / "created.csv", tmp / "dangling.csv");
  expect_one_line(run(sweep + tmp / "dangling.csv"), 2, "symbolic link");
  EXPECT_FALSE(fs::exists(tmp / "created.csv"));
  EXPECT_EQ(entries_in(tmp.path), 4u) << "a set-aside copy was made";
  // --save-corpus naming a file: refused before the sweep runs.
  expect_one_line(run(sweep + tmp / "new.csv --save-corpus " + tmp / "C.csv"), 2, "not a folder");
  EXPECT_FALSE(fs::exists(tmp / "new.csv"));
}

}  // namespace

namespace {

std::string report_of(const TempDir& tmp, const std::string& out, const std::string& extra = "") {
  return "report " + tmp / "B.csv" + " --out " + out + extra;
}

// Issue 34, item 1: links planted in `report --out DIR` (junit.xml, report.md, plots/...) had their
// targets overwritten. DIR is now written whole beside itself and renamed into place, and a DIR
// that holds anything report did not write is exit 2 and left as it is.
TEST(OutputFilesCli, ReportNeverWritesThroughWhatIsPlantedInItsFolder) {
  TempDir tmp;
  two_csvs(tmp);
  write(tmp / "victim", "victim\n");
  fs::create_directory(tmp / "planted");
  fs::create_symlink(tmp / "victim", tmp / "planted/junit.xml");
  fs::create_symlink(tmp / "victim", tmp / "planted/report.md");
  expect_one_line(run(report_of(tmp, tmp / "planted", " --no-plots")), 2, "gridfuzz did not write");
  // plots/ as a link to another folder, a dangling link named like a picture.
  fs::create_directory(tmp / "elsewhere");
  fs::create_directory(tmp / "plots-link");
  fs::create_directory_symlink(tmp / "elsewhere", tmp / "plots-link/plots");
  expect_one_line(run(report_of(tmp, tmp / "plots-link")), 2, "gridfuzz did not write");
  EXPECT_EQ(entries_in(tmp.path / "elsewhere"), 0u);
  // An earlier report folder with a link planted in it since.
  ASSERT_EQ(run(report_of(tmp, tmp / "earlier")).exit_code, 0);
  fs::remove(tmp.path / "earlier" / "junit.xml");
  fs::create_symlink(tmp / "victim", tmp / "earlier/junit.xml");
  expect_one_line(run(report_of(tmp, tmp / "earlier")), 2, "junit.xml");
  EXPECT_EQ(slurp(tmp / "victim"), "victim\n");
  // The folder itself a link; a folder of other files; a folder holding the input.
  fs::create_directory_symlink(tmp / "elsewhere", tmp / "link");
  expect_one_line(run(report_of(tmp, tmp / "link")), 2, "symbolic link");
  write(tmp / "elsewhere/notes.txt", "mine\n");
  expect_one_line(run(report_of(tmp, tmp / "elsewhere")), 2, "notes.txt");
  EXPECT_EQ(slurp(tmp / "elsewhere/notes.txt"), "mine\n");
  expect_one_line(run("report " + tmp / "elsewhere/notes.txt" + " --out " + tmp / "elsewhere"), 2, "");
  expect_one_line(run(report_of(tmp, tmp.path.string())), 2, "the CSV");
  // Refused before the rows are gathered: the refusal is all it says. It read the CSV whole and
  // noted a ledger entry the rows reached unmatched first (rows that ran, an entry none names).
  std::string ran = slurp(tmp / "B.csv");
  for (std::size_t at; (at = ran.find(",static,-,,,static,")) != std::string::npos;)
    ran.replace(at, 19, ",accept,-,,,pass,");
  write(tmp / "ran.csv", ran);
  write(tmp / "ledger.txt", "gguf.moe_vec legacy fail:fault x.md#finding-1 a.cu:1\n");
  const std::string ledger = " --ledger " + tmp / "ledger.txt";
  ASSERT_NE(run("report " + tmp / "ran.csv" + ledger).output.find("ledger entries unmatched"), std::string::npos);
  expect_one_line(run("report " + tmp / "ran.csv" + " --out " + tmp / "planted" + ledger), 2, "gridfuzz did not write");
  // Nothing was left beside the folders (no staging folder).
  for (const auto& e : fs::directory_iterator(tmp.path))
    EXPECT_EQ(e.path().filename().string().find(".gridfuzz-"), std::string::npos) << e.path();
}

TEST(OutputFilesCli, ReportWritesAWholeFolderAndReplacesOnlyItsOwn) {
  TempDir tmp;
  two_csvs(tmp);
  ASSERT_EQ(run(report_of(tmp, tmp / "rep/")).exit_code, 0);
  EXPECT_TRUE(fs::exists(tmp.path / "rep" / ".gridfuzz-report"));
  EXPECT_EQ(slurp(tmp / "rep/report.md").find("# gridfuzz report"), 0u);
  // A plot file of an earlier run that this one does not draw: gone with the old folder.
  const fs::path stale = tmp.path / "rep" / "plots" / "gone.gp";
  write(stale, "stale\n");
  const Result again = run(report_of(tmp, tmp / "rep"));
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(tmp.path / "rep" / "junit.xml"));
  // An empty folder is taken (mkdir -p out first); missing parents are made.
  fs::create_directory(tmp / "empty");
  EXPECT_EQ(run(report_of(tmp, tmp / "empty", " --no-plots")).exit_code, 0);
  EXPECT_TRUE(fs::exists(tmp.path / "empty" / "report.md"));
  EXPECT_EQ(run(report_of(tmp, tmp / "a/b/c", " --no-plots")).exit_code, 0);
  EXPECT_TRUE(fs::exists(tmp.path / "a" / "b" / "c" / "junit.xml"));
  for (const auto& e : fs::directory_iterator(tmp.path))
    EXPECT_EQ(e.path().filename().string().find(".gridfuzz-"), std::string::npos) << e.path();
}

// The .gp script was written to a path in DIR and then given to gnuplot by that path: whoever
// could write into DIR could swap it in between. gnuplot now reads each script from a pipe.
TEST(OutputFilesCli, GnuplotIsNeverGivenAScriptPath) {
  TempDir tmp;
  two_csvs(tmp);
  const std::string log = tmp / "gnuplot-calls";
  write(tmp / "fake-gnuplot", "#!/bin/sh\necho \"args=$# stdin=$(test -p /dev/stdin && echo pipe)\" >> '" + log +
                                  "'\ncat >> '" + log + "'\n");
  fs::permissions(tmp.path / "fake-gnuplot", fs::perms::owner_all);
  const Result r = run(report_of(tmp, tmp / "rep", " --gnuplot " + tmp / "fake-gnuplot"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const std::string calls = slurp(log);
  EXPECT_NE(calls.find("args=0 stdin=pipe"), std::string::npos) << calls;
  EXPECT_EQ(calls.find("args=1"), std::string::npos) << calls;
  EXPECT_NE(calls.find("gf_here = '"), std::string::npos) << "the script did not come on stdin\n" << calls;
}

}  // namespace

namespace {

// A set-aside copy cut short (a kill, a full disk) stood under its .bak name, counted among the 3
// copies kept, and pushed a whole one out; the sweep itself died of SIGXFSZ at a file-size limit.
TEST(OutputFilesCli, ASetAsideCopyCutShortNeverStandsAsABak) {
  TempDir tmp;
  const std::string sweep = "sweep gguf.quantize_q8_1 --static --device-preset sm_90 --csv " + tmp / "s.csv";
  ASSERT_EQ(run(sweep + " --cases 20").exit_code, 0);
  const std::string before = slurp(tmp / "s.csv");
  ASSERT_GT(before.size(), 8192u);
  const Result cut = run_gridfuzz_after("ulimit -f 4", sweep + " --cases 1");  // 4 KiB: the copy is cut short
  expect_error(cut, 3, "cannot set " + tmp / "s.csv" + " aside");
  EXPECT_EQ(slurp(tmp / "s.csv"), before) << "the CSV was emptied without a whole copy";
  EXPECT_EQ(entries_in(tmp.path), 1u) << "a cut copy or a temporary file was left";
  // Without the limit the copy is whole, under its .bak name.
  ASSERT_EQ(run(sweep + " --cases 1").exit_code, 0);
  std::size_t copies = 0;
  for (const auto& e : fs::directory_iterator(tmp.path))
    if (e.path().extension() == ".bak") {
      ++copies;
      EXPECT_EQ(slurp(e.path()), before);
    }
  EXPECT_EQ(copies, 1u);
  EXPECT_EQ(entries_in(tmp.path), 2u);
}

}  // namespace

namespace {

// `replay F.csv:1 --csv F.csv` appended the replayed row to the CSV it read it from.
TEST(OutputFilesCli, ReplayNeverAppendsToTheCsvItReadsFrom) {
  TempDir tmp;
  two_csvs(tmp);
  const std::string before = slurp(tmp / "B.csv");
  const std::string replay = "replay " + tmp / "B.csv" + ":1 --static --device-preset sm_90 --csv ";
  expect_one_line(run(replay + tmp / "B.csv"), 2, "the same file as the CSV the cases are read from");
  fs::create_hard_link(tmp / "B.csv", tmp / "hard.csv");
  expect_one_line(run(replay + tmp / "hard.csv"), 2, "the same file");
  EXPECT_EQ(slurp(tmp / "B.csv"), before);
  EXPECT_EQ(run(replay + tmp / "C.csv").exit_code, 0);  // another CSV: appended as before
  EXPECT_GT(slurp(tmp / "C.csv").size(), before.size());
}

}  // namespace
