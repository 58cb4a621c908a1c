#include "gridfuzz/app/session.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <thread>

#include "gridfuzz/core/text_file.hpp"

#include "gridfuzz/device/context.hpp"
#include "gridfuzz/device/device.hpp"
#include "gridfuzz/device/driver_release.hpp"
#include "gridfuzz/core/verdict.hpp"
#include "gridfuzz/app/builtin_kernels.hpp"
#include "gridfuzz/app/ledger_file.hpp"
#include "gridfuzz/app/parse.hpp"
#include "gridfuzz/plugin/plugin_loader.hpp"
#include "gridfuzz/reports/csv_row.hpp"
#include "gridfuzz/reports/text_escape.hpp"

#ifndef GRIDFUZZ_DEFAULT_LEDGER
#define GRIDFUZZ_DEFAULT_LEDGER "properties/known-failures.txt"
#endif

namespace gridfuzz::app {

void add_engine_options(CLI::App& cmd, EngineOptions& o) {
  cmd.add_option("--csv", o.csv, "append one row per case to this CSV file");
  cmd.add_option("--timeout", o.timeout_s, "seconds one case may take before its worker is killed (default 300)")
      ->check(duration_seconds(false));
  cmd.add_flag("--timing", o.timing, "time each passing case (CUDA events, L2 flushed between samples)");
  cmd.add_option("--samples", o.samples, "timing samples per case (default 10)")->check(CLI::Range(1, 10000));
  cmd.add_option("--reference-samples", o.reference_samples, "outputs checked against the CPU reference (default 256)")
      ->check(whole_number(1u << 24));
  cmd.add_option("--self-check-share", o.self_check_share,
                 "share of passing cases whose production call is made again on the same inputs and compared with "
                 "itself, chosen by case id; 0 turns it off; outputs that disagree with a reference always are "
                 "(default " + reports::format_double(o.self_check_share) + ")")
      ->check(share_of_one());
  cmd.add_option("--budget-mib", o.budget_mib, "device memory a case may use, MiB (default: 90% of the device's memory less 2 GiB)")
      ->check(whole_number(std::uint64_t{1} << 30));
  cmd.add_option("--ledger", o.ledger, "known-failure ledger (default: properties/known-failures.txt)");
  cmd.add_flag("--in-process", o.in_process, "run cases in this process (debugging; a fault ends gridfuzz)");
  cmd.add_option("--workers-per-device", o.workers_per_device,
                 "worker processes per GPU, running cases side by side while their memory fits (default 1; more is "
                 "faster where the host's work dominates, but a faulting case can make cases beside it fault: see "
                 "docs/REPORTS.md)")
      ->check(CLI::Range(1, 64));
  cmd.add_flag("--process-per-case", o.process_per_case,
               "start a fresh worker process for every case (isolation; slower)");
  cmd.add_flag("--static", o.static_only, "predictions only, even where a GPU is present");
  cmd.add_flag("--fresh-reference", o.fresh_reference,
               "compute the split reference for every case (by default the variants of one shape share it where "
               "their adapter says it is the same: docs/DECISIONS.md, \"One split reference per shape\")");
}

std::vector<std::string> worker_argv(const EngineOptions& o, int device) {
  std::vector<std::string> a{std::filesystem::read_symlink("/proc/self/exe").string()};
  for (const auto& plugin : plugin::loaded_plugins()) a.insert(a.end(), {"--plugin", plugin});  // same kernels
  a.insert(a.end(), {"worker", "--device", std::to_string(device)});
  if (o.timing) a.push_back("--timing");
  a.insert(a.end(), {"--samples", std::to_string(o.samples), "--reference-samples", std::to_string(o.reference_samples),
                     "--self-check-share", reports::format_double(o.self_check_share), "--budget-mib",
                     std::to_string(o.budget_mib)});
  if (!o.ledger.empty()) a.insert(a.end(), {"--ledger", o.ledger});
  if (o.fresh_reference) a.push_back("--fresh-reference");
  return a;
}

int workers_per_device_for(const EngineOptions& o) {
  // One unless asked: on an H200 without MPS a fault in one worker's context made cases running
  // beside it fault too (evidence/2026-12-02-h200/README.md), so side by side is opt-in.
  return o.workers_per_device > 0 ? o.workers_per_device : 1;
}

RunOptions run_options(const EngineOptions& o) {
  return RunOptions{o.timing,        o.warmup,          o.samples, o.reference_samples, o.budget_mib << 20,
                    o.self_check_share, !o.fresh_reference};
}

Registry& builtin_registry() {
  static Registry& r = [] () -> Registry& {
    Registry& reg = Registry::instance();
    register_builtin_kernels(reg);
    return reg;
  }();
  return r;
}

// An entry for a loaded kernel must name one of its variants (a typo would silently expect
// nothing). An entry for a kernel that is not loaded (a plugin's) cannot be checked: with an
// explicit --ledger that is said on stderr; the checked-in ledger names the self-test plugin's
// kernels, which most runs do not load.
static void check_ledger(const Ledger& ledger, const std::string& source, bool explicit_ledger) {
  for (const LedgerEntry& e : ledger.entries()) {
    const std::string where = source + ":" + std::to_string(e.line) + ": ";
    const auto kernel = builtin_registry().find(e.kernel);
    if (!kernel) {
      if (explicit_ledger)
        std::cerr << "note: " << reports::terminal_text(where + "kernel '" + e.kernel + "' is not loaded here; the entry is unused")
                  << "\n";
      continue;
    }
    const auto variants = kernel->variants();
    if (std::find(variants.begin(), variants.end(), e.variant) == variants.end()) {
      std::string known;
      for (const auto& v : variants) known += (known.empty() ? "" : ", ") + v;
      throw UsageError(where + "kernel '" + e.kernel + "' has no variant '" + e.variant + "' (it has " + known + ")");
    }
    // A finding's condition reads only the kernel's axes and the row's outcome columns: a typo
    // would make it false everywhere, an entry silently unused.
    if (!e.condition) continue;
    const auto axes = kernel->axes();
    for (const std::string& name : e.condition->names()) {
      const bool column = std::find(std::begin(kConditionColumns), std::end(kConditionColumns), name) !=
                          std::end(kConditionColumns);
      const bool axis = std::any_of(axes.begin(), axes.end(), [&](const AxisSpec& a) { return a.name == name; });
      if (column || axis) continue;
      std::string known;
      for (const auto& a : axes) known += (known.empty() ? "" : ", ") + a.name;
      throw UsageError(where + "the condition reads '" + name + "', which is no axis of " + e.kernel + " (" + known +
                       ") nor predicted, observed or index_wrap");
    }
  }
}

// --ledger, else the checked-in ledger (ledger_file.hpp), checked against the kernels loaded.
static Ledger load_ledger(const std::string& path) {
  LedgerFile file = load_ledger_file(path);
  if (!file.path.empty()) check_ledger(file.ledger, file.path, file.named);
  return std::move(file.ledger);
}

// The first device's limits; every other device must have the same, or the predictions (made
// once, in this process) would be wrong for some rows.
static SelectedLimits limits_of(const std::vector<int>& devices) {
  SelectedLimits first = select_limits(DeviceChoice{devices.front(), std::nullopt});
  for (std::size_t i = 1; i < devices.size(); ++i) {
    const SelectedLimits other = select_limits(DeviceChoice{devices[i], std::nullopt});
    if (other.limits != first.limits)
      throw UsageError("--devices: device " + std::to_string(devices[i]) + " (" + other.limits.name + ", cc " +
                       other.limits.cc() + ") has other limits than device " + std::to_string(devices.front()) +
                       " (" + first.limits.name + ", cc " + first.limits.cc() +
                       "); sweep different GPU models in separate runs (--device N)");
  }
  return first;
}

Session::Session(const GlobalOptions& global, const EngineOptions& options, std::vector<int> devices)
    : options_(options),
      limits_(devices.empty() ? select_limits(global.device) : limits_of(devices)),
      devices_(std::move(devices)) {
  if (devices_.empty() && limits_.on_device) devices_.push_back(limits_.ordinal);
  if (!on_device()) devices_.clear();
  if (options_.in_process && devices_.size() > 1)
    throw UsageError("--in-process runs on one device; it cannot be combined with several --devices");
  if (options_.in_process && (options_.workers_per_device > 1 || options_.process_per_case))
    throw UsageError("--in-process runs no worker: it excludes --workers-per-device and --process-per-case");
  if (options_.timing && options_.workers_per_device > 1)
    throw UsageError("--timing times each case with the GPU to itself: it excludes --workers-per-device " +
                     std::to_string(options_.workers_per_device));
  try {
    env_.ledger = load_ledger(options.ledger);
  } catch (const UsageError&) {
    throw;
  } catch (const FileReadError&) {
    throw;
  } catch (const std::exception& e) {
    throw UsageError(std::string("--ledger: ") + e.what());
  }
  env_.registry = &builtin_registry();
  env_.limits = limits_.limits;
  RunContext& ctx = env_.context;
  ctx.run_id = std::to_string(std::chrono::system_clock::now().time_since_epoch().count() / 1000000) + "-" +
               std::to_string(getpid());
  ctx.device = limits_.limits.name;
  ctx.cc = limits_.limits.cc();
  ctx.driver = device::driver_version();
  if (!ctx.driver.empty()) ctx.driver_release = device::driver_release();  // read once, beside the CUDA version
  ctx.commit = build_commit();
  if (!devices_.empty()) ctx.device_index = devices_.front();
}

Executor& Session::executor() {
  if (!executor_) {  // made on first use: the worker command uses a session but no executor
    if (!on_device())
      executor_ = std::make_unique<StaticExecutor>(env_);
    else if (options_.in_process)
      executor_ = std::make_unique<InProcessExecutor>(env_, devices_.front(), run_options(options_));
    else {
      const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
      const int per_device = workers_per_device_for(options_);
      // Workers side by side share the host's cores for their CPU samples (parallel_for.hpp): each
      // gets its share unless GRIDFUZZ_CPU_THREADS says otherwise (the workers inherit it).
      const std::size_t workers = static_cast<std::size_t>(per_device) * devices_.size();
      if (workers > 1 && std::getenv("GRIDFUZZ_CPU_THREADS") == nullptr)
        setenv("GRIDFUZZ_CPU_THREADS", std::to_string(std::max<std::size_t>(2, cores / workers)).c_str(), 0);
      executor_ = std::make_unique<WorkerPoolExecutor>(
          env_, devices_, [this](int device) { return worker_argv(options_, device); },
          WorkerPoolOptions{.timeout_s = options_.timeout_s,
                            .workers_per_device = per_device,
                            .memory_capacity = options_.budget_mib ? options_.budget_mib << 20
                                                                   : default_memory_budget(limits_.limits),
                            .process_per_case = options_.process_per_case});
    }
  }
  return *executor_;
}

const Kernel& Session::kernel(const std::string& name) const {
  try {
    return env_.kernel(name);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

void Session::validate(const Case& c) const {
  const Kernel& k = kernel(c.kernel);
  const auto variants = k.variants();
  if (std::find(variants.begin(), variants.end(), c.variant) == variants.end()) {
    std::string known;
    for (const auto& v : variants) known += (known.empty() ? "" : ", ") + v;
    throw UsageError(k.name() + ": unknown variant '" + c.variant + "' (variants: " + known + ")");
  }
  if (auto err = Params::validate(c.params, k.axes())) throw UsageError(k.name() + ": " + *err);
  // A case names every axis (a replay string too): the kernels read them all.
  for (const AxisSpec& axis : k.axes())
    if (!c.params.has(axis.name))
      throw UsageError(k.name() + ": no value for axis '" + axis.name + "' (a case names every axis: " + c.replay() + ")");
  if (auto err = k.check(c.params)) throw UsageError(k.name() + ": " + *err);
}

CaseRecord Session::execute(const Case& c) {
  validate(c);
  std::optional<CaseRecord> out;
  executor().run({c}, [&](const Case&, const CaseRecord& record) { out = record; }, {});
  if (!out) throw std::logic_error("the executor left the case without a record: " + c.replay());
  return *out;
}

}  // namespace gridfuzz::app
