#pragma once
// The sweep itself, apart from its command line. Every boundary case, then every random case
// rapidcheck draws, goes to the executor as one batch, so several GPUs share the work. Then each
// target's random property is checked again, in order, over the finished rows; where it fails,
// rapidcheck shrinks it there, one new case at a time. Rapidcheck draws the same cases whatever
// the results (until a failure), so the rows, verdicts and minimal cases do not depend on how
// many GPUs ran them or in what order they finished.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "case_executor.hpp"
#include "sweep_plan.hpp"

namespace gridfuzz::cli {

struct SweepSettings {
  std::size_t cases = 10;     // random cases per kernel and variant
  std::uint64_t seed = 1;     // of the random cases and of every case's inputs
  double time_budget_s = 0;   // stop starting new cases after this long; 0: no limit
};

struct SweepSummary {
  std::size_t ran = 0;                      // cases run by this sweep
  std::size_t reused = 0;                   // cases whose row was already done (a resumed CSV)
  std::map<std::string, int> by_verdict;    // every case of the sweep counted once
  std::vector<std::string> failures;        // "<verdict>  <replay>" of each failing row
  std::vector<Case> minimal_failures;       // per target whose random property failed: the shrunk case
  std::vector<std::string> notes;           // e.g. rapidcheck gave up on a target
  bool budget_hit = false;                  // some planned case was not started
};

// Runs the sweep. `done`: rows already finished, by case id (a resumed CSV): those cases are not
// run again. `on_new_row` gets each row this sweep runs, once, as it finishes (write it out there).
SweepSummary run_sweep(const std::vector<SweepTarget>& targets, const SweepSettings& settings, CaseExecutor& executor,
                       std::map<std::string, reports::CsvRow> done,
                       const std::function<void(const reports::CsvRow&)>& on_new_row);

}  // namespace gridfuzz::cli
