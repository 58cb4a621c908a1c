#pragma once
// What every case-running command shares: the environment (kernels, limits, ledger, run context)
// built from the command line, and the executor that runs the cases (worker processes, one per
// GPU; this process with --in-process; the model alone without a GPU).
#include <memory>
#include <optional>
#include <string>

#include "gridfuzz/app/commands.hpp"
#include "gridfuzz/core/case.hpp"
#include "gridfuzz/engine/case_record.hpp"
#include "gridfuzz/engine/environment.hpp"
#include "gridfuzz/engine/executor.hpp"
#include "gridfuzz/registry.hpp"

namespace gridfuzz::app {

// 2% of passing cases: a race that gave the right outputs once is still seen in a large sweep, for
// 2% more production calls (failing output checks are always self-checked).
inline constexpr double kDefaultSelfCheckShare = 0.02;

struct EngineOptions {
  std::string csv;               // append rows here when set
  double timeout_s = 300;        // one case, in the worker
  bool timing = false;
  int samples = 10;
  int warmup = 2;
  std::size_t reference_samples = 256;
  // Passing cases whose production call is made again and compared with itself (self_check.hpp),
  // chosen by case id; `replay` sets 1 before the options are read (every replayed case).
  double self_check_share = kDefaultSelfCheckShare;
  std::uint64_t budget_mib = 0;  // 0: default_memory_budget (runner.hpp)
  std::string ledger;            // default: the checked-in properties/known-failures.txt
  bool in_process = false;       // debugging: no worker (a fault kills gridfuzz)
  int workers_per_device = 0;    // 0: the default (workers_per_device_for)
  bool process_per_case = false; // a fresh worker process for every case
  bool static_only = false;      // predictions only, even with a GPU
  bool fresh_reference = false;  // no split reference shared among a shape's variants
};

void add_engine_options(CLI::App& cmd, EngineOptions& o);
// The command line of a worker for these options on one device.
std::vector<std::string> worker_argv(const EngineOptions& o, int device);
// What the runner needs of the options.
RunOptions run_options(const EngineOptions& o);
// Workers per GPU: the number asked for, else 1 (side by side is opt-in: a fault in one worker's
// context can reach the cases running beside it; --timing refuses more than 1).
int workers_per_device_for(const EngineOptions& o);

// Built-in kernels, registered once.
Registry& builtin_registry();

class Session {
 public:
  // `devices`: the GPUs to run cases on, one worker process each (sweep --devices); they must
  // all have the same limits. Empty: the GPU --device selects (device 0 by default), or none
  // (static analysis).
  Session(const GlobalOptions& global, const EngineOptions& options, std::vector<int> devices = {});

  const Kernel& kernel(const std::string& name) const;  // UsageError listing the known kernels
  // UsageError for an unknown variant or params the kernel does not accept.
  void validate(const Case& c) const;
  // Validates, then runs or predicts one case.
  CaseRecord execute(const Case& c);
  // What runs (or predicts) valid cases for this session's options.
  Executor& executor();

  bool on_device() const { return limits_.on_device && !options_.static_only; }
  const std::vector<int>& devices() const { return devices_; }  // where cases run (empty: static)
  const SelectedLimits& limits() const { return limits_; }
  const Environment& environment() const { return env_; }
  const RunContext& context() const { return env_.context; }
  const Ledger& ledger() const { return env_.ledger; }
  int worker_restarts() const { return executor_ ? executor_->worker_restarts() : 0; }

 private:
  EngineOptions options_;
  SelectedLimits limits_;
  std::vector<int> devices_;
  Environment env_;
  std::unique_ptr<Executor> executor_;
};

}  // namespace gridfuzz::app
