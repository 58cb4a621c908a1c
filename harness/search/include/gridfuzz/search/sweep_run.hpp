#pragma once
// The sweep itself, apart from its command line. Cases stream through the executor in chunks as
// they are planned: every boundary case first (the most telling, so a time budget cuts random
// cases before them), then the random cases rapidcheck draws, target by target; under a time
// budget each target gets an equal share of the time left, so no kernel is left out. Memory does not
// grow with the number of cases beyond their 64-bit ids (for de-duplication) and the rows that
// failed. Then the random property of each target with a failing row is checked again, in order,
// over the finished verdicts; rapidcheck shrinks a failure there, one new case at a time.
// Rapidcheck draws the same cases whatever the results (until a failure), so the rows, verdicts
// and minimal cases do not depend on how many GPUs ran them, in what order they finished, or on
// the chunk size.
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "gridfuzz/core/axis_predicate.hpp"
#include "gridfuzz/engine/case_record.hpp"
#include "gridfuzz/search/cost_order.hpp"
#include "gridfuzz/engine/executor.hpp"
#include "gridfuzz/core/verdict.hpp"
#include "gridfuzz/search/sweep_plan.hpp"

namespace gridfuzz {

// The order boundary cases run in: tier by tier (SweepTier; within a tier one case of each target
// in turn, smallest first), or cheapest first across the tiers (cost_order.hpp).
enum class SweepOrder { tiers, cost };

struct SweepSettings {
  std::size_t cases = 100;    // random cases per kernel and variant (docs/MODELS.md, "The random phase")
  std::uint64_t seed = 1;     // of the random cases and of every case's inputs
  // Stop starting new cases after this long; 0: no limit. The first planned case starts
  // whatever is left: a budget spent planning still leaves a row (the cheapest of the first tier).
  double time_budget_s = 0;
  // The budget counts from here (the command's start: planning counts too).
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  std::size_t chunk = 1024;   // cases handed to the executor at once (bounds memory)
  std::uint64_t device_bytes = 0;  // random shapes that need more device memory are redrawn (0: no limit)
  SweepOrder order = SweepOrder::tiers;
  MeasuredCaseMs measured_case_ms{};  // what cases cost before, for SweepOrder::cost (may be empty)
  // Random shapes that do not satisfy it are redrawn (`--where`; the boundary cases are filtered
  // in the plan: keep_matching_cases).
  AxisFilter where{};
  // Once this many cases run by this sweep have failed the run, none starts, and no failure is
  // shrunk (`--maxfail`; 0: no limit). Rows of a resumed CSV do not count.
  std::size_t max_failures = 0;
};

struct SweepSummary {
  std::size_t ran = 0;                      // cases run by this sweep
  std::size_t reused = 0;                   // cases whose row was already done (a resumed CSV)
  std::map<std::string, int> by_verdict;    // every case of the sweep counted once
  std::vector<std::string> failures;        // "<verdict>  <replay>" of each failing row
  std::vector<Case> minimal_failures;       // per target whose random property failed: the shrunk case
  std::vector<std::string> notes;           // e.g. rapidcheck gave up on a target
  bool budget_hit = false;                  // some planned case was not started
  bool max_failures_hit = false;            // stopped at SweepSettings::max_failures
};

// Runs the sweep. `done`: the verdicts of cases already finished, by case id (a resumed CSV):
// those cases are not run again. `on_new_record` gets each record this sweep runs, once, as it
// finishes (report it there), with the tier that made it: its boundary tier, `random`, or `shrink`.
SweepSummary run_sweep(const std::vector<SweepTarget>& targets, const SweepSettings& settings, Executor& executor,
                       const std::map<std::string, Verdict>& done,
                       const std::function<void(const CaseRecord&)>& on_new_record);

}  // namespace gridfuzz
