// `gridfuzz watch` as a user runs it, without a GPU: its argument errors (exit 2, one line), a
// program that never touches CUDA (watched, its exit status passed through, "no kernel launch"),
// a program that cannot be started, and --read-log of hand-written records with --csv.
#include <gtest/gtest.h>

#include "cli_expect.hpp"
#include "run_gridfuzz.hpp"
#include "temp_dir.hpp"

namespace gridfuzz::testing {
namespace {

TEST(WatchCli, NoDashesIsUsage) {
  expect_one_line(run_gridfuzz("watch /bin/true"), 2, "put the command after '--'");
  EXPECT_EQ(run_gridfuzz("watch /bin/echo -- hello").exit_code, 2) << "words before '--' too";
}

TEST(WatchCli, NoCommandIsUsage) {
  expect_one_line(run_gridfuzz("watch"), 2, "no command to run");
  expect_one_line(run_gridfuzz("watch --"), 2, "no command to run");
  expect_one_line(run_gridfuzz("watch --csv x.csv --"), 2, "no command to run");
}

TEST(WatchCli, ReadLogRunsNoCommand) {
  TempDir dir;
  write(dir / "l.log", "");
  expect_one_line(run_gridfuzz("watch --read-log " + dir / "l.log" + " -- /bin/true"), 2, "runs no command");
}

TEST(WatchCli, ProgramThatCannotStartIsUsage) {
  const CommandResult r = run_gridfuzz("watch -- /nonexistent/program --flag");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("cannot run '/nonexistent/program': No such file or directory"), std::string::npos) << r.output;
}

TEST(WatchCli, ProgramWithoutCudaRecordsNothing) {
  const CommandResult r = run_gridfuzz("--device-preset sm_90 watch -- /bin/true");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("watch: /bin/true exited with status 0"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("watch: no kernel launch was recorded (the program never initialised the CUDA driver"),
            std::string::npos)
      << r.output;
}

TEST(WatchCli, ExitStatusAndArgumentsPassThrough) {
  TempDir dir;
  // The program gets its arguments unparsed by gridfuzz (--csv here is the program's), and the
  // variables that point the driver at the injection library.
  const CommandResult r = run_gridfuzz("--device-preset sm_90 watch -- /bin/sh -c 'echo \"[$0] $CUDA_INJECTION64_PATH\" "
                                       "> " + dir / "seen" + "; test -f \"$GRIDFUZZ_WATCH_LOG\" && exit 7' --csv");
  EXPECT_EQ(r.exit_code, 7) << r.output;
  EXPECT_NE(r.output.find("exited with status 7"), std::string::npos) << r.output;
  const std::string seen = slurp(dir / "seen");
  EXPECT_EQ(seen.rfind("[--csv] /", 0), 0u) << seen;
  EXPECT_NE(seen.find("libgridfuzz_watch.so"), std::string::npos) << seen;
}

TEST(WatchCli, SignalIsReportedAs128PlusIt) {
  const CommandResult r = run_gridfuzz("--device-preset sm_90 watch -- /bin/sh -c 'kill -SEGV $$'");
  EXPECT_EQ(r.exit_code, 128 + 11) << r.output;
  EXPECT_NE(r.output.find("killed by signal 11"), std::string::npos) << r.output;
}

TEST(WatchCli, KeptLogMustBeNew) {
  TempDir dir;
  write(dir / "kept.log", "x");
  expect_one_line(run_gridfuzz("--device-preset sm_90 watch --log " + dir / "kept.log" + " -- /bin/true"), 2,
                  "exists; name a new file");
  const CommandResult r = run_gridfuzz("--device-preset sm_90 watch --log " + dir / "new.log" + " -- /bin/true");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(std::filesystem::exists(dir / "new.log")) << r.output;
}

TEST(WatchCli, ReadLogJudgesRecordsAndWritesCsv) {
  TempDir dir;
  const CommandResult r = run_gridfuzz("--device-preset sm_90 watch --read-log " + std::string(GRIDFUZZ_PLANTED_LOG) +
                                       " --csv " + dir / "w.csv" + " --markdown " + dir / "w.md");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("watch: 20 launch(es) of 9 kernel(s) in 2 process(es), judged against preset:sm_90 (cc 9.0): "
                          "3 refused, 1 with a zero grid"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("note: launch log: line 13: a launch line has 12 fields, this one 3 (skipped)"), std::string::npos) << r.output;
  const std::string csv = slurp(dir / "w.csv");
  EXPECT_EQ(csv.rfind("rank,kernel,", 0), 0u) << csv;
  EXPECT_NE(csv.find("\n1,refused_y,"), std::string::npos) << csv;
  EXPECT_EQ(slurp(dir / "w.md").rfind("## Launch headroom\n", 0), 0u);
  // Written again over its own CSV; never over a file that is not one.
  EXPECT_EQ(run_gridfuzz("--device-preset sm_90 watch --read-log " + std::string(GRIDFUZZ_PLANTED_LOG) + " --csv " +
                         dir / "w.csv").exit_code,
            0);
  write(dir / "other.txt", "not a watch csv\n");
  const CommandResult refused = run_gridfuzz("--device-preset sm_90 watch --read-log " + std::string(GRIDFUZZ_PLANTED_LOG) +
                                             " --csv " + dir / "other.txt");
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_EQ(slurp(dir / "other.txt"), "not a watch csv\n");
}

TEST(WatchCli, ReadLogOfAMissingFileIsUsage) {
  const CommandResult r = run_gridfuzz("--device-preset sm_90 watch --read-log /nonexistent.log");
  EXPECT_EQ(r.exit_code, 2) << r.output;
}

TEST(WatchCli, InjectionLibraryExportsOnlyItsEntryPoint) {
  // Loaded into any program: nothing of gridfuzz's (nor of the static libraries in it) may bind
  // to the program's symbols of the same name.
  const CommandResult r = run_shell("nm -D --defined-only " + std::string(GRIDFUZZ_WATCH_LIBRARY) + " | awk '{print $3}'");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "InitializeInjection\n");
}

}  // namespace
}  // namespace gridfuzz::testing
