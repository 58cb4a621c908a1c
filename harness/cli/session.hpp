#pragma once
// What every case-running command shares: the kernel registry, the limits judged against, the
// ledger, and the executor that runs a case in a worker process (or predicts it without a GPU).
#include <memory>
#include <optional>
#include <string>

#include "commands.hpp"
#include "gridfuzz/case.hpp"
#include "gridfuzz/ledger.hpp"
#include "gridfuzz/registry.hpp"
#include "gridfuzz/reports/csv_row.hpp"
#include "gridfuzz/result_row.hpp"
#include "gridfuzz/runner.hpp"
#include "gridfuzz/worker_client.hpp"

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
// The worker's own command line for these options.
std::vector<std::string> worker_argv(const GlobalOptions& g, const EngineOptions& o);

// Built-in kernels, registered once.
Registry& builtin_registry();

class Session {
 public:
  Session(const GlobalOptions& global, const EngineOptions& options);
  ~Session();

  const Kernel& kernel(const std::string& name) const;  // UsageError listing the known kernels
  // Validates params and variant (UsageError), then runs or predicts the case.
  reports::CsvRow execute(const Case& c);
  bool on_device() const { return limits_.on_device && !options_.static_only; }
  const SelectedLimits& limits() const { return limits_; }
  const RunContext& context() const { return ctx_; }
  const Ledger& ledger() const { return ledger_; }
  int worker_restarts() const { return worker_ ? worker_->restarts() : 0; }

 private:
  reports::CsvRow row_without_reply(const Case& c, const std::string& observed);

  GlobalOptions global_;
  EngineOptions options_;
  SelectedLimits limits_;
  Ledger ledger_;
  RunContext ctx_;
  std::unique_ptr<WorkerClient> worker_;
};

// One line per row for the console.
std::string format_row_line(const reports::CsvRow& row);
// True for verdicts that fail a run: fail:*, model-mismatch, unexpected-pass.
bool is_failure(const std::string& verdict);

}  // namespace gridfuzz::cli
