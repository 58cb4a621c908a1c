// What a worker is told: the engine options of the parent's command line reach the worker's
// runner as the parent meant them (the worker parses the same options, app/session.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gridfuzz/app/session.hpp"

namespace gridfuzz::app {
namespace {

// The worker's options, parsed from the arguments after "worker" as the worker command does.
RunOptions as_the_worker_reads(const std::vector<std::string>& argv) {
  const auto worker = std::find(argv.begin(), argv.end(), "worker");
  EXPECT_NE(worker, argv.end());
  CLI::App app;
  EngineOptions engine;
  add_engine_options(app, engine);
  int device = -1;
  app.add_option("--device", device);
  std::vector<std::string> args(worker + 1, argv.end());
  std::reverse(args.begin(), args.end());  // CLI11 takes them last first
  app.parse(args);
  return run_options(engine);
}

TEST(WorkerArgv, TheRunOptionsReachTheWorkerAsTheParentMeantThem) {
  EngineOptions parent;
  parent.samples = 7;
  parent.reference_samples = 99;
  parent.self_check_share = 0.25;
  parent.budget_mib = 1024;
  for (const bool fresh : {false, true}) {
    parent.fresh_reference = fresh;
    const RunOptions mine = run_options(parent);
    const RunOptions worker = as_the_worker_reads(worker_argv(parent, 0));
    EXPECT_EQ(worker.share_reference, !fresh);
    EXPECT_EQ(worker.share_reference, mine.share_reference);
    EXPECT_EQ(worker.samples, mine.samples);
    EXPECT_EQ(worker.reference_samples, mine.reference_samples);
    EXPECT_EQ(worker.self_check_share, mine.self_check_share);
    EXPECT_EQ(worker.memory_budget_bytes, mine.memory_budget_bytes);
    EXPECT_EQ(worker.timing, mine.timing);
  }
}

}  // namespace
}  // namespace gridfuzz::app
