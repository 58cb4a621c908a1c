#pragma once
// What every case-running command shares: the kernel registry, the limits judged against, the
// ledger, and the executor that runs cases in worker processes, one per GPU (or predicts them
// without a GPU).
#include <memory>
#include <optional>
#include <string>

#include "case_executor.hpp"
#include "commands.hpp"
#include "gridfuzz/case.hpp"
#include "gridfuzz/ledger.hpp"
#include "gridfuzz/registry.hpp"
#include "gridfuzz/reports/csv_row.hpp"
#include "gridfuzz/result_row.hpp"
#include "gridfuzz/runner.hpp"
#include "gridfuzz/worker_pool.hpp"

namespace gridfuzz::cli {

struct EngineOptions {
  std::string csv;               // append rows here when set
  double timeout_s = 300;        // one case, in the worker
  bool timing = false;
  int samples = 10;
  int warmup = 2;
  std::size_t reference_samples = 256;
  std::uint64_t budget_mib = 0;  // 0: 90% of free device memory
  std::string ledger;            // default: the checked-in properties/known-failures.txt
  bool in_process = false;       // debugging: no worker (a fault kills gridfuzz)
  bool static_only = false;      // predictions only, even with a GPU
};

void add_engine_options(CLI::App& cmd, EngineOptions& o);
// The command line of a worker for these options on one device.
std::vector<std::string> worker_argv(const EngineOptions& o, int device);

// Built-in kernels, registered once.
Registry& builtin_registry();

class Session : public CaseExecutor {
 public:
  // `devices`: the GPUs to run cases on, one worker process each (sweep --devices); they must
  // all have the same limits. Empty: the GPU --device selects (device 0 by default), or none
  // (static analysis).
  Session(const GlobalOptions& global, const EngineOptions& options, std::vector<int> devices = {});
  ~Session() override;

  const Kernel& kernel(const std::string& name) const;  // UsageError listing the known kernels
  // UsageError for an unknown variant or params the kernel does not accept.
  void validate(const Case& c) const;
  // Validates, then runs or predicts one case.
  reports::CsvRow execute(const Case& c);
  // Runs (or predicts) a batch on every device at once. Cases must be valid.
  void run(const std::vector<Case>& cases, const std::function<void(const Case&, const reports::CsvRow&)>& on_row,
           const std::function<bool()>& should_stop) override;

  bool on_device() const { return limits_.on_device && !options_.static_only; }
  const std::vector<int>& devices() const { return devices_; }  // where cases run (empty: static)
  const SelectedLimits& limits() const { return limits_; }
  const RunContext& context() const { return ctx_; }
  const Ledger& ledger() const { return ledger_; }
  int worker_restarts() const { return pool_ ? pool_->restarts() : 0; }

 private:
  reports::CsvRow row_without_reply(const Case& c, const std::string& observed, int device);
  reports::CsvRow row_of_reply(const Case& c, WorkerReply reply, int device);

  EngineOptions options_;
  SelectedLimits limits_;
  std::vector<int> devices_;
  Ledger ledger_;
  RunContext ctx_;
  std::unique_ptr<WorkerPool> pool_;
};

// One line per row for the console.
std::string format_row_line(const reports::CsvRow& row);

}  // namespace gridfuzz::cli
