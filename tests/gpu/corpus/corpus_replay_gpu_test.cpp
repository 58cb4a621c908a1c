// Every case of the failure corpus (properties/corpus/*.replay), replayed first on the GPU, each in
// a process of its own: a case that once failed must not fail again (fail:*, model-mismatch,
// unexpected-pass), and a fault of one entry does not stop the others.
#include <gtest/gtest.h>

#include "gridfuzz/core/verdict.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "gridfuzz/device/context.hpp"
#include "gridfuzz/device/device.hpp"
#include "gridfuzz/device/driver_api.hpp"
#include "gridfuzz/engine/runner.hpp"
#include "gridfuzz/app/session.hpp"

namespace fs = std::filesystem;
using namespace gridfuzz;

namespace {

// The corpus and ledger of the source tree, or of the current directory (a copied checkout).
fs::path source_file(const std::string& relative) {
  const fs::path built = fs::path(GRIDFUZZ_SOURCE_DIR) / relative;
  return fs::exists(built) ? built : fs::path(relative);
}

std::vector<std::string> corpus_entries() {
  std::vector<std::string> out;
  const fs::path dir = source_file("properties/corpus");
  if (!fs::exists(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".replay") continue;
    std::ifstream f(e.path());
    std::string line;
    if (std::getline(f, line) && !line.empty()) out.push_back(line);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

constexpr const char* kEntryEnv = "GRIDFUZZ_CORPUS_ENTRY";
constexpr const char* kResultEnv = "GRIDFUZZ_CORPUS_RESULT";

// One entry, in a process of its own (exec'd by the test below; disabled so that it never runs
// alone): a sticky fault of one entry must not keep the later ones from running.
TEST(CorpusReplay, DISABLED_OneEntryChild) {
  const char* entry = std::getenv(kEntryEnv);
  const char* result_path = std::getenv(kResultEnv);
  ASSERT_TRUE(entry && result_path) << "run only by NoCaseOfTheCorpusFailsAgain";
  const Case c = Case::parse_replay(entry);
  const auto kernel = app::builtin_registry().find(c.kernel);
  ASSERT_TRUE(kernel) << "corpus case of an unknown kernel: " << entry;
  const Ledger ledger = Ledger::load(source_file("properties/known-failures.txt").string());
  device::PrimaryContext ctx(0);
  const CaseResult r = run_case(*kernel, c, device::query_limits(0), RunOptions{}, ledger);
  std::ofstream(result_path) << r.verdict.to_string() << "\n" << r.observed.to_string() << "\n" << r.detail << "\n";
}

TEST(CorpusReplay, NoCaseOfTheCorpusFailsAgain) {
  if (device::device_count() == 0) {
    std::string why;
    device::driver_available(&why);
    GTEST_SKIP() << "no CUDA device: " << why;
  }
  const auto entries = corpus_entries();
  ASSERT_FALSE(entries.empty()) << "properties/corpus has no .replay file";
  const std::string result_path = (std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") +
                                  std::string("/gridfuzz_corpus_child_") + std::to_string(getpid());
  for (const std::string& replay : entries) {
    std::remove(result_path.c_str());
    // fork + exec at once: the child touches no CUDA state inherited from this process.
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      setenv(kEntryEnv, replay.c_str(), 1);
      setenv(kResultEnv, result_path.c_str(), 1);
      execl("/proc/self/exe", "/proc/self/exe", "--gtest_filter=CorpusReplay.DISABLED_OneEntryChild",
            "--gtest_also_run_disabled_tests", static_cast<char*>(nullptr));
      _exit(127);
    }
    int status = 0;
    waitpid(child, &status, 0);
    std::ifstream in(result_path);
    std::string verdict, observed, detail;
    const bool reported = static_cast<bool>(std::getline(in, verdict) && std::getline(in, observed));
    std::getline(in, detail);
    // Every entry runs; one that dies without a verdict is a harness failure, reported as such.
    if (!reported) {
      ADD_FAILURE() << replay << ": the child died without a verdict (status " << status << ")";
      continue;
    }
    std::cout << "replayed " << replay << ": " << verdict << " (" << observed << ")\n";
    EXPECT_FALSE(verdict_fails_run(verdict)) << replay << ": " << verdict << " (" << observed << ", " << detail << ")";
  }
  std::remove(result_path.c_str());
}
