#pragma once
// Each subcommand registers its options on the app and returns a runner that gives the exit code.
#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

#include "gridfuzz/app/device_selection.hpp"
#include "gridfuzz/core/case.hpp"

namespace gridfuzz::app {

// Exit codes shared by every command.
enum ExitCode : int { kOk = 0, kFound = 1, kUsage = 2, kEnvironment = 3 };

struct GlobalOptions {
  DeviceChoice device;
};

using Runner = std::function<int()>;

class Session;
// Validates every case, then runs them as one batch through the session's executor, one row each
// (console, and `csv_path` when not empty); exit kFound when any fails the run (run, replay).
int run_cases(Session& session, const std::vector<Case>& cases, const std::string& csv_path);

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

}  // namespace gridfuzz::app
