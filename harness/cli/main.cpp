// gridfuzz: launch-geometry validation and fuzzing for CUDA kernels.
#include <CLI/CLI.hpp>

#include <iostream>
#include <map>

#include "commands.hpp"
#include "gridfuzz/device/cuda_error.hpp"
#include "parse.hpp"
#include "plugin_loader.hpp"
#include "session.hpp"

int main(int argc, char** argv) {
  using namespace gridfuzz::cli;
  CLI::App app{"gridfuzz: finds the shapes at which GPU kernels cross a launch or index limit"};
  app.require_subcommand(1);
  GlobalOptions global;
  int device_ordinal = -1;
  std::string preset;
  // Global options, accepted anywhere on the line (subcommands fall through to here).
  auto* dev_opt = app.add_option("--device", device_ordinal, "CUDA device ordinal to use")->check(CLI::NonNegativeNumber);
  auto* preset_opt = app.add_option("--device-preset", preset,
                                    "judge against a named device (sm_75 sm_80 sm_86 sm_89 sm_90 sm_100 sm_120) "
                                    "instead of a GPU: static analysis");
  std::vector<std::string> plugins;
  app.add_option("--plugin", plugins, "load kernels from a shared library built with gridfuzz_add_plugin (repeatable)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);

  std::map<CLI::App*, Runner> runners;
  auto add = [&](Runner (*adder)(CLI::App&, const GlobalOptions&)) {
    const std::size_t before = app.get_subcommands({}).size();
    Runner r = adder(app, global);
    CLI::App* sub = app.get_subcommands({}).at(before);
    sub->fallthrough();
    runners[sub] = std::move(r);
  };
  add(add_plan_command);
  add(add_limits_command);
  add(add_devices_command);
  add(add_list_command);
  add(add_run_command);
  add(add_replay_command);
  add(add_worker_command);
  add(add_sweep_command);
  add(add_bisect_command);
  add(add_report_command);
  add(add_diff_command);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "gridfuzz: " << e.what() << "\n(run 'gridfuzz --help' for usage)\n";
    return kUsage;
  }
  if (*dev_opt) global.device.device = device_ordinal;
  if (*preset_opt) global.device.preset = preset;
  // Plugins register into the same registry as the built-in kernels, before any command runs.
  try {
    for (const auto& path : plugins) gridfuzz::plugin::load_plugin(path, builtin_registry());
  } catch (const std::exception& e) {
    std::cerr << "gridfuzz: " << e.what() << "\n";
    return kUsage;
  }

  try {
    for (auto& [sub, run] : runners)
      if (sub->parsed()) return run();
  } catch (const UsageError& e) {
    std::cerr << "gridfuzz: " << e.what() << "\n";
    return kUsage;
  } catch (const gridfuzz::device::NoDeviceError& e) {
    std::cerr << "gridfuzz: " << e.what() << "\n";
    return kEnvironment;
  } catch (const std::exception& e) {
    std::cerr << "gridfuzz: error: " << e.what() << "\n";
    return kEnvironment;
  }
  return kUsage;
}
