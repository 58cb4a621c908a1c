// The crash note: what a dying process leaves is what the parent reads, once.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "gridfuzz/crash_note.hpp"

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

TEST(CrashNote, NoEnvironmentNoFile) {
  unsetenv(kCrashNoteEnv);
  leave_crash_note("only on stderr");
  EXPECT_EQ(take_crash_note("/nonexistent/gridfuzz-note"), "");
}

}  // namespace
}  // namespace gridfuzz
