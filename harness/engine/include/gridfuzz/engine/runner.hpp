#pragma once
// One case from plan to verdict: prediction, inputs, the production launch, the oracle (split
// reference, unwritten outputs, guard zones, CPU reference on samples, the self-check) and
// optional timing.
// Runs in the current process on the current context; the worker (worker_server.hpp, its client
// worker_client.hpp) isolates it.
#include <cstdint>
#include <string>
#include <vector>

#include "gridfuzz/core/case.hpp"
#include "gridfuzz/device_limits.hpp"
#include "gridfuzz/kernel.hpp"
#include "gridfuzz/core/ledger.hpp"
#include "gridfuzz/core/oracle_result.hpp"
#include "gridfuzz/predictor.hpp"
#include "gridfuzz/core/verdict.hpp"
#include "gridfuzz/engine/shared_reference.hpp"

namespace gridfuzz {

struct RunOptions {
  bool timing = false;
  int warmup = 2;
  int samples = 10;
  std::size_t reference_samples = 256;
  std::uint64_t memory_budget_bytes = 0;  // 0: default_memory_budget of the device
  // The share (0..1) of passing cases whose production call is made again and compared with itself
  // (gridfuzz/core/self_check.hpp); failing output checks always are.
  double self_check_share = 0;
  // The variants of one shape share the split reference where their adapter says it is the same
  // (shared_reference.hpp); false: every case computes its own (the executors pass no reuse).
  bool share_reference = true;
};

// The device memory a case may use unless told otherwise: 90% of the device's memory less 2 GiB
// for the contexts and libraries of the workers. A function of the device alone (not of what is
// free at the moment), so a case's verdict is the same however many cases run beside it.
std::uint64_t default_memory_budget(const DeviceLimits& limits);

// The device memory a bound case needs: its buffers with guard zones and the split reference's
// outputs (what the runner allocates), plus a margin for the harness's own scratch.
// Past 2^64 bytes: the largest uint64, over any budget (the case is skipped, never allocated).
std::uint64_t case_device_need(const BoundCase& bound);

struct Timing {
  // Call time: CUDA events around the whole production call (host code between launches included).
  double median_ms = 0, min_ms = 0, max_ms = 0;
  int samples = 0;
  double gbps = 0;
  // Kernel time: the GPU time of the call's kernels (CUPTI activity records, kernel_activity.hpp),
  // over kernel_samples further calls; 0 samples when CUPTI could not record (a warning on stderr
  // says why, once per process).
  double kernel_median_ms = 0, kernel_min_ms = 0, kernel_max_ms = 0;
  int kernel_samples = 0;
  int kernels_per_call = 0;  // kernels the last timed call ran
  // The call-time samples behind median/min/max, in the order taken (`samples` of them; CUDA
  // events measure in float32): what a test of the noise needs, which the three numbers lose.
  std::vector<float> samples_ms;
  bool operator==(const Timing&) const = default;
};

// Where one case's wall time went, in milliseconds (steady clock, in the process that ran it):
// what the throughput work is judged by. 0 for a phase that did not run.
struct PhaseTimes {
  double plan_ms = 0;       // check, bind, plan and prediction
  double alloc_ms = 0;      // device buffers with guard zones (the call's and the split reference's)
  double fill_ms = 0;       // inputs generated, outputs poisoned
  double call_ms = 0;       // the production call, to its synchronisation (and its repeat, the self-check)
  double reference_ms = 0;  // the split-batch reference
  double compare_ms = 0;    // guard zones, unwritten outputs, big vs split comparison
  double cpu_ms = 0;        // the float64 CPU reference on samples
  double timing_ms = 0;     // --timing's samples
  double case_ms = 0;       // the whole case in the runner (the phases and what lies between them)
  double worker_ms = 0;     // a worker process started for this case (its first, or after a crash)
  bool operator==(const PhaseTimes&) const = default;
};

struct CaseResult {
  Case the_case;
  LaunchPlan plan;
  Prediction prediction;
  Observed observed;             // static_only until something ran
  OracleResult oracle;
  Verdict verdict = Verdict::of(Verdict::Kind::static_only);
  std::string detail;            // one human-readable line
  Timing timing;
  PhaseTimes phases;
  bool context_lost = false;     // a sticky fault: the process must not run another case
  std::int64_t started_unix_ms = 0;  // when the case started (system clock, ms since 1970 UTC)
  std::string finding;           // the ledger's finding behind an expected-fail (llama-cpp.md#finding-3); else empty
};

// kernel.bind(p, variant), never null: a kernel (a plugin's) whose bind() returns no case, or throws
// something that is not a std::exception, is refused with std::invalid_argument naming it.
std::unique_ptr<BoundCase> bind_case(const Kernel& kernel, const Params& p, const std::string& variant);

// Plan and prediction only (no GPU), judged by the one verdict path like every other result (an
// observation `static` is the verdict `static`): what the static executor records.
CaseResult predict_case(const Kernel& kernel, const Case& c, const DeviceLimits& limits);

// The whole case on the current device. Throws std::invalid_argument for params the kernel
// rejects; every device-side failure becomes part of the result instead. With `reuse`, a case whose
// reference is the same for every variant judges against the reference kept from the previous
// case of its shape when the outputs match it (else a fresh one decides), and keeps its own for
// the next when asked (a passing case, not self-checked, not timed).
CaseResult run_case(const Kernel& kernel, const Case& c, const DeviceLimits& limits, const RunOptions& options,
                    const Ledger& ledger, ReferenceReuse* reuse = nullptr);

// A case that ran somewhere else and left no result, only what was seen from outside (its worker
// died: `fault:worker-<why>`, or hung: `timeout`): predicted here and judged by the same verdict
// path as run_case.
CaseResult judge_without_result(const Kernel& kernel, const Case& c, const DeviceLimits& limits, const Ledger& ledger,
                                const Observed& observed);

}  // namespace gridfuzz
