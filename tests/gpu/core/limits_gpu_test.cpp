// On a real GPU: every limit probe, launched through the checked launch path, gets the verdict the
// Predictor gave it, and every accepted probe runs its whole grid. The table is written to
// $GRIDFUZZ_LIMITS_TABLE when set (evidence/limits-h200.md is made from it).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iostream>

#include "gridfuzz/device/device.hpp"
#include "gridfuzz/device/driver_api.hpp"
#include "gridfuzz/probes/probe_runner.hpp"

using namespace gridfuzz;

TEST(LimitsGpu, PredictorEqualsDriverAtEveryBoundary) {
  std::string why;
  if (device::device_count() == 0) {
    device::driver_available(&why);
    GTEST_SKIP() << "no CUDA device: " << why;
  }
  const auto results = device::run_limit_probes(0);
  ASSERT_FALSE(results.empty());
  int refused = 0;
  for (const auto& r : results) {
    EXPECT_TRUE(r.agree()) << r.probe.boundary << " " << describe(r.probe.launch) << ": predicted " << r.predicted.to_string()
                           << ", driver " << r.observed.to_string() << (r.ran_to_completion ? "" : " (did not complete)");
    refused += r.observed.kind != Observed::Kind::accept;
  }
  EXPECT_GT(refused, 0);
  const std::string table = device::probes_markdown(results);
  if (const char* path = std::getenv("GRIDFUZZ_LIMITS_TABLE")) std::ofstream(path) << table;
  std::cout << table;
}
