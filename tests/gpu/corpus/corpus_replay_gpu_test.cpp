// Every case of the failure corpus (properties/corpus/*.replay), replayed first on the GPU: a
// case that once failed must not fail again (fail:*, model-mismatch, unexpected-pass).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "gridfuzz/device/context.hpp"
#include "gridfuzz/device/device.hpp"
#include "gridfuzz/device/driver_api.hpp"
#include "gridfuzz/runner.hpp"
#include "session.hpp"

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

TEST(CorpusReplay, NoCaseOfTheCorpusFailsAgain) {
  if (device::device_count() == 0) {
    std::string why;
    device::driver_available(&why);
    GTEST_SKIP() << "no CUDA device: " << why;
  }
  const auto entries = corpus_entries();
  ASSERT_FALSE(entries.empty()) << "properties/corpus has no .replay file";
  const Ledger ledger = Ledger::load(source_file("properties/known-failures.txt").string());
  device::PrimaryContext ctx(0);
  const DeviceLimits limits = device::query_limits(0);
  for (const std::string& replay : entries) {
    const Case c = Case::parse_replay(replay);
    const auto kernel = cli::builtin_registry().find(c.kernel);
    ASSERT_TRUE(kernel) << "corpus case of an unknown kernel: " << replay;
    const CaseResult r = run_case(*kernel, c, limits, RunOptions{}, ledger);
    EXPECT_FALSE(cli::is_failure(r.verdict)) << replay << ": " << r.verdict << " (" << r.observed << ", " << r.detail << ")";
    // A sticky fault poisons this process's context: later entries need a fresh process.
    if (r.context_lost) {
      std::cout << "context lost after " << replay << " (" << r.observed << "); remaining entries not run here\n";
      break;
    }
  }
}
