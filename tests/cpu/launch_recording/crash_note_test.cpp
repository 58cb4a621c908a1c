// The crash note: what a dying process leaves is what the parent reads, once.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "gridfuzz/crash_note.hpp"
#include "gridfuzz/engine/worker_client.hpp"

namespace gridfuzz {
namespace {

TEST(CrashNote, ChildLeavesItParentTakesItOnce) {
  const std::string path = (std::filesystem::temp_directory_path() / ("gridfuzz-note-test-" + std::to_string(getpid()))).string();
  ASSERT_EQ(setenv(kCrashNoteEnv, path.c_str(), 1), 0);
  EXPECT_DEATH(
      {
        leave_crash_note("llama.cpp abort: mmvq.cu:1441: GGML_ASSERT(!ids || ne12 <= MMVQ_MAX_BATCH_SIZE) failed\nx");
        std::abort();
      },
      "GGML_ASSERT");
  EXPECT_EQ(take_crash_note(path),
            "llama.cpp abort: mmvq.cu:1441: GGML_ASSERT(!ids || ne12 <= MMVQ_MAX_BATCH_SIZE) failed x");
  EXPECT_EQ(take_crash_note(path), "");
  unsetenv(kCrashNoteEnv);
  std::filesystem::remove(path);
}

TEST(CrashNote, TheParentReadsOnePrintableLine) {
  const std::string path = (std::filesystem::temp_directory_path() / ("gridfuzz-note-raw-" + std::to_string(getpid()))).string();
  std::ofstream(path) << "  a\tb\x01" "c\r\nd  \n";
  EXPECT_EQ(take_crash_note(path), "a b c  d");
  std::ofstream(path) << " \n\t ";
  EXPECT_EQ(take_crash_note(path), "");
  std::filesystem::remove(path);
}

// A link at the note's path (planted, or a crafted GRIDFUZZ_CRASH_NOTE) was followed: its target
// truncated and overwritten by the dying worker, and truncated again by the parent.
TEST(CrashNote, NeverWrittenThroughALink) {
  const auto dir = std::filesystem::temp_directory_path() / ("gridfuzz-note-link-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "victim") << "victim";
  std::filesystem::create_symlink(dir / "victim", dir / "note");
  std::filesystem::create_symlink(dir / "created", dir / "dangling");
  ASSERT_EQ(setenv(kCrashNoteEnv, (dir / "note").c_str(), 1), 0);
  leave_crash_note("last words");
  ASSERT_EQ(setenv(kCrashNoteEnv, (dir / "dangling").c_str(), 1), 0);
  leave_crash_note("last words");
  unsetenv(kCrashNoteEnv);
  take_crash_note((dir / "note").string());
  std::ifstream in(dir / "victim");
  std::string text;
  std::getline(in, text);
  EXPECT_EQ(text, "victim");
  EXPECT_FALSE(std::filesystem::exists(dir / "created"));
  std::filesystem::remove_all(dir);
}

TEST(CrashNote, NoEnvironmentNoFile) {
  unsetenv(kCrashNoteEnv);
  leave_crash_note("only on stderr");
  EXPECT_EQ(take_crash_note("/nonexistent/gridfuzz-note"), "");
}

// End to end through a real worker process: what it leaves before it aborts reaches the reply's
// reason (and so the row's observed outcome), once; the next worker starts with an empty note.
TEST(CrashNote, ReachesTheCrashReasonOfTheWorker) {
  WorkerClient w({"/bin/sh", "-c",
                  "read line; printf 'llama.cpp abort: mmid.cu:147: GGML_ASSERT(nbytes_shared <= smpbo) failed' "
                  "> \"$GRIDFUZZ_CRASH_NOTE\"; kill -ABRT $$"},
                 10);
  const WorkerReply r = w.run("fake/x/1/n=1");
  ASSERT_EQ(r.status, WorkerReply::Status::crashed);
  EXPECT_EQ(r.reason, "signal 6 (Aborted): llama.cpp abort: mmid.cu:147: GGML_ASSERT(nbytes_shared <= smpbo) failed");
  WorkerClient quiet({"/bin/sh", "-c", "read line; kill -ABRT $$"}, 10);
  EXPECT_EQ(quiet.run("fake/x/1/n=1").reason, "signal 6 (Aborted)");
}

}  // namespace
}  // namespace gridfuzz
