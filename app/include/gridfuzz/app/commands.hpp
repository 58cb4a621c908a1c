#pragma once
// Each subcommand registers its options on the app and returns a runner that gives the exit code.
#include <CLI/CLI.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gridfuzz/app/device_selection.hpp"
#include "gridfuzz/core/case.hpp"

namespace gridfuzz::app {

// Exit codes shared by every command.
enum ExitCode : int { kOk = 0, kFound = 1, kUsage = 2, kEnvironment = 3 };

struct GlobalOptions {
  DeviceChoice device;
  // The words after the first "--" of the command line (nullopt: there is none); `watch` runs them.
  std::optional<std::vector<std::string>> after_dashes;
};

using Runner = std::function<int()>;

class Session;
// Validates every case, then runs them as one batch through the session's executor, one row each
// (console, and `csv_path` when not empty); exit kFound when any fails the run (run, replay).
// `max_failures` > 0: no case starts once that many have failed (a note says so; rows are kept).
int run_cases(Session& session, const std::vector<Case>& cases, const std::string& csv_path,
              std::size_t max_failures = 0);
// `--maxfail N` (N >= 1) into `max_failures` (run, replay, sweep).
void add_maxfail_option(CLI::App& cmd, std::size_t& max_failures);

Runner add_plan_command(CLI::App& app, const GlobalOptions& global);
Runner add_limits_command(CLI::App& app, const GlobalOptions& global);
Runner add_devices_command(CLI::App& app, const GlobalOptions& global);
Runner add_list_command(CLI::App& app, const GlobalOptions& global);
Runner add_run_command(CLI::App& app, const GlobalOptions& global);
Runner add_replay_command(CLI::App& app, const GlobalOptions& global);
Runner add_worker_command(CLI::App& app, const GlobalOptions& global);
Runner add_sweep_command(CLI::App& app, const GlobalOptions& global);
Runner add_bisect_command(CLI::App& app, const GlobalOptions& global);
Runner add_report_command(CLI::App& app, const GlobalOptions& global);
Runner add_diff_command(CLI::App& app, const GlobalOptions& global);
Runner add_bench_diff_command(CLI::App& app, const GlobalOptions& global);
Runner add_models_command(CLI::App& app, const GlobalOptions& global);
Runner add_baseline_command(CLI::App& app, const GlobalOptions& global);
Runner add_merge_command(CLI::App& app, const GlobalOptions& global);
Runner add_watch_command(CLI::App& app, const GlobalOptions& global);

}  // namespace gridfuzz::app
