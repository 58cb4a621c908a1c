#pragma once
// A finished case as every consumer sees it: what a worker sends back over its pipe, what the
// executors hand to the commands, what the reporters (CSV, console) write. Typed throughout;
// text only at the edges (the reporters, the pipe's codec).
#include <cstdint>
#include <optional>
#include <string>

#include "gridfuzz/core/case.hpp"
#include "gridfuzz/checked_math.hpp"
#include "gridfuzz/index_range.hpp"
#include "gridfuzz/launch_spec.hpp"
#include "gridfuzz/core/oracle_result.hpp"
#include "gridfuzz/engine/runner.hpp"
#include "gridfuzz/core/verdict.hpp"
#include "gridfuzz/core/vocabulary.hpp"

namespace gridfuzz {

// Where and by what the case was judged.
struct RunContext {
  std::string run_id;   // one per gridfuzz invocation
  std::string device;   // device name or preset
  std::string cc;
  std::string driver;
  std::string commit;   // gridfuzz's own git commit
  std::optional<int> device_index;  // CUDA ordinal of the GPU that ran the case; none for static rows
  std::string driver_release;  // the driver's own version (580.159.04); empty when unknown or static
  bool operator==(const RunContext&) const = default;
};

// The one launch a record describes (representative_launch).
struct LaunchSummary {
  Dim3 grid, block;
  std::uint64_t smem_bytes = 0;  // dynamic + static
  int regs = 0;                  // 0: unknown
  bool operator==(const LaunchSummary&) const = default;
};

// What a record keeps of the plan and its prediction.
struct PlanSummary {
  std::size_t launches = 0;
  std::optional<LaunchSummary> launch;
  std::optional<u128> max_index;  // the index closest to (or furthest past) its type's limit
  std::optional<IndexType> index_type;  // that index's type
  IndexWrap index_wrap;           // Prediction::index_wrap(), typed
  PredictedOutcome predicted;     // Prediction::outcome, typed
  bool operator==(const PlanSummary&) const = default;
};

struct CaseRecord {
  Case the_case;
  RunContext context;
  PlanSummary plan;
  Observed observed;
  OracleResult oracle;
  Verdict verdict = Verdict::of(Verdict::Kind::static_only);
  std::string detail;
  Timing timing;
  PhaseTimes phases;          // all 0 for a record of no run (static, or judged from outside)
  bool context_lost = false;  // the worker that made it exits after sending it
  // Which part of a sweep made the case; none outside a sweep (run, replay, bisect). The sweep
  // sets it in the parent when it takes the record (sweep_run.cpp), as the executor sets run_id:
  // the worker never needs it, so it is not on the pipe.
  std::optional<CaseTier> tier;
  std::string finding;              // the ledger's finding behind an expected-fail, else empty
  std::int64_t started_unix_ms = 0;  // when the case started (system clock, ms since 1970 UTC); 0: unknown
};

// The record of a result, judged in `context`.
CaseRecord make_record(const CaseResult& result, const RunContext& context);

// The launch a record describes: the first refused one, else the one with the most blocks.
const LaunchSpec* representative_launch(const LaunchPlan& plan, const Prediction& prediction);

// The commit gridfuzz was built from ("unknown" outside a git checkout).
std::string build_commit();

}  // namespace gridfuzz
