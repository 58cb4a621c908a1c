// gridfuzz: launch-geometry validation and fuzzing for CUDA kernels.
#include <CLI/CLI.hpp>
#include <cuda_runtime_api.h>  // CUDART_VERSION: the runtime linked in

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gridfuzz/app/commands.hpp"
#include "gridfuzz/device/cuda_error.hpp"
#include "gridfuzz/device/device.hpp"
#include "gridfuzz/device/driver_release.hpp"
#include "gridfuzz/device/driver_api.hpp"
#include "gridfuzz/device_limits.hpp"
#include "gridfuzz/engine/case_record.hpp"
#include "gridfuzz/reports/csv_error.hpp"
#include "gridfuzz/reports/text_escape.hpp"
#include "gridfuzz/core/output_file.hpp"
#include "gridfuzz/core/text_file.hpp"
#include "gridfuzz/app/parse.hpp"
#include "gridfuzz/plugin/plugin_loader.hpp"
#include "gridfuzz/app/session.hpp"
#include "gridfuzz/app/standard_output.hpp"

#ifndef GRIDFUZZ_VERSION
#error "GRIDFUZZ_VERSION is set from project(gridfuzz VERSION ...) in CMakeLists.txt"
#endif

namespace {

constexpr const char* kGlobalGroup = "Global options (before or after the command)";

// `gridfuzz --version`: the version, the commit it was built from, the CUDA runtime linked in and
// the driver seen now (its CUDA version and its own release).
std::string version_text() {
  std::string driver = gridfuzz::device::driver_version();
  if (driver.empty()) {
    std::string why;
    gridfuzz::device::driver_available(&why);
    driver = "no driver" + (why.empty() ? std::string() : " (" + why + ")");
  } else {
    const std::string release = gridfuzz::device::driver_release();
    driver = "CUDA " + driver + (release.empty() ? "" : ", release " + release);
  }
  return std::string("gridfuzz ") + GRIDFUZZ_VERSION + "\ncommit: " + gridfuzz::build_commit() +
         "\nCUDA runtime (built with): " + std::to_string(CUDART_VERSION / 1000) + "." +
         std::to_string((CUDART_VERSION % 1000) / 10) + "\ndriver: " + gridfuzz::reports::terminal_text(driver);
}

// A subcommand's --help also lists the global options (they are the parent's: every subcommand
// falls through to it), under the same heading as in `gridfuzz --help`.
class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_footer(const CLI::App* app) const override {
    std::string out;
    if (const CLI::App* parent = app->get_parent()) {
      const auto globals = parent->get_options([](const CLI::Option* o) { return o->get_group() == kGlobalGroup; });
      if (!globals.empty()) {
        out = make_group(kGlobalGroup, false, globals) + "\n";
        if (out.front() == '\n') out.erase(0, 1);  // make_help already ends the groups with a blank line
      }
    }
    return out + CLI::Formatter::make_footer(app);
  }
};

// A closed stdin, stdout or stderr (cron, systemd, a daemonised CI) would make the next file opened
// take its number, and every console line would land in that file (a CSV, say): each one that
// is closed is opened on /dev/null first.
void open_closed_standard_fds() {
  for (int fd = 0; fd <= 2; ++fd)
    if (fcntl(fd, F_GETFD) == -1 && errno == EBADF) {
      const int opened = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
      if (opened != -1 && opened != fd) {  // lower numbers are open, so this does not happen; be sure
        dup2(opened, fd);
        close(opened);
      }
    }
}

// Data goes to stdout: a write that failed there (a full disk) fails the command with exit 3
// instead of passing for a complete output; a pipe whose reader went away ends it quietly, 141
// (standard_output.hpp).
int check_stdout(int code) {
  std::cout.flush();
  const bool failed = std::cout.fail() || std::fflush(stdout) != 0 || std::ferror(stdout);
  if (!failed) return code;
  const int why = errno;
  if (gridfuzz::app::stdout_reader_gone()) return gridfuzz::app::kStdoutClosed;
  std::cerr << "gridfuzz: error: writing standard output failed" << (why ? std::string(": ") + std::strerror(why) : "")
            << "\n";
  return gridfuzz::app::kEnvironment;
}

// The first word of the line that is neither an option nor a global option's value, when it names
// no command. CLI11 answers --help before it looks at such a word, so `gridfuzz nonsense --help`
// printed the general help and exited 0.
std::optional<std::string> unknown_command(int argc, char** argv, const std::vector<std::string>& commands) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") return std::nullopt;  // CLI11's own error follows
    if (arg.starts_with("-")) {
      if (arg == "--device" || arg == "--device-preset" || arg == "--plugin") ++i;  // the global option's value
      continue;
    }
    if (std::find(commands.begin(), commands.end(), arg) != commands.end()) return std::nullopt;
    return arg;
  }
  return std::nullopt;
}

int run_main(int argc, char** argv);

}  // namespace

int main(int argc, char** argv) {
  open_closed_standard_fds();
  // A file-size limit (ulimit -f) reached is a write error like a full disk (EFBIG, exit 3 with a
  // message), not a signal that kills gridfuzz mid-file.
  signal(SIGXFSZ, SIG_IGN);
  // A closed stdout pipe is EPIPE, so the command ends through its destructors (whole CSV rows,
  // workers stopped) with exit 141, instead of being killed mid-way (standard_output.hpp).
  signal(SIGPIPE, SIG_IGN);
  int code = gridfuzz::app::kEnvironment;
  try {
    code = run_main(argc, argv);
  } catch (const gridfuzz::app::StdoutClosed&) {
    return gridfuzz::app::kStdoutClosed;  // quietly: the reader chose to stop reading
  } catch (...) {
    // Not a std::exception (every one of gridfuzz's own is): plugin code threw something else.
    std::cerr << "gridfuzz: error: an exception that is not a std::exception (thrown by a plugin's code?)\n";
    return check_stdout(gridfuzz::app::kEnvironment);
  }
  return check_stdout(code);
}

namespace {

int run_main(int argc, char** argv) {
  using namespace gridfuzz::app;
  CLI::App app{"gridfuzz: finds the shapes at which GPU kernels cross a launch or index limit"};
  app.require_subcommand(1);
  app.formatter(std::make_shared<HelpFormatter>());  // before the subcommands: they copy it
  app.set_version_flag("--version", version_text, "print the version, build commit, CUDA runtime and driver, and exit")
      ->group(kGlobalGroup);
  GlobalOptions global;
  int device_ordinal = -1;
  std::string preset;
  // Global options, accepted anywhere on the line (subcommands fall through to here).
  auto* dev_opt = app.add_option("--device", device_ordinal, "CUDA device ordinal to use")->check(whole_number(std::numeric_limits<int>::max()));
  auto* preset_opt = app.add_option("--device-preset", preset,
                                    "judge against a named device (sm_75 sm_80 sm_86 sm_89 sm_90 sm_100 sm_120) "
                                    "instead of a GPU: static analysis");
  dev_opt->group(kGlobalGroup);
  preset_opt->group(kGlobalGroup);
  std::vector<std::string> plugins;
  app.add_option("--plugin", plugins, "load kernels from a shared library built with gridfuzz_add_plugin (repeatable)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->group(kGlobalGroup);

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
  add(add_models_command);
  add(add_run_command);
  add(add_replay_command);
  add(add_worker_command);
  add(add_sweep_command);
  add(add_bisect_command);
  add(add_report_command);
  add(add_diff_command);
  add(add_bench_diff_command);
  add(add_baseline_command);
  add(add_merge_command);
  add(add_watch_command);

  std::vector<std::string> commands;
  for (const auto& entry : runners) commands.push_back(entry.first->get_name());
  if (const auto word = unknown_command(argc, argv, commands)) {
    std::string list;
    for (const auto* sub : app.get_subcommands({})) list += (list.empty() ? "" : ", ") + sub->get_name();
    std::cerr << "gridfuzz: unknown command '" << gridfuzz::reports::terminal_text(*word) << "' (commands: " << list
              << "; run 'gridfuzz --help' for usage)\n";
    return kUsage;
  }
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--") {
      global.after_dashes = std::vector<std::string>(argv + i + 1, argv + argc);
      break;
    }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "gridfuzz: " << gridfuzz::reports::terminal_text(e.what()) << "\n(run 'gridfuzz --help' for usage)\n";
    return kUsage;
  }
  if (*dev_opt) global.device.device = device_ordinal;
  if (*preset_opt) {
    if (!gridfuzz::device_preset(preset)) {
      std::string known;
      for (const auto& name : gridfuzz::device_preset_names()) known += " " + name;
      std::cerr << "gridfuzz: --device-preset: unknown preset '" << gridfuzz::reports::terminal_text(preset)
                << "' (known:" << known << ")\n";
      return kUsage;
    }
    global.device.preset = preset;
  }
  // Plugins register into the same registry as the built-in kernels, before any command runs.
  try {
    for (const auto& path : plugins) gridfuzz::plugin::load_plugin(path, builtin_registry());
  } catch (const std::exception& e) {
    std::cerr << "gridfuzz: " << gridfuzz::reports::terminal_text(e.what()) << "\n";
    return kUsage;
  }

  // One message line per error (escaped: it may quote a CSV field or a plugin's text), and the
  // exit code of its cause: 2 bad input, 3 the environment.
  const auto fail = [](const std::exception& e, int code) {
    std::cerr << "gridfuzz: " << (code == kEnvironment ? "error: " : "") << gridfuzz::reports::terminal_text(e.what())
              << "\n";
    return code;
  };
  try {
    for (auto& [sub, run] : runners)
      if (sub->parsed()) return run();
  } catch (const UsageError& e) {
    return fail(e, kUsage);
  } catch (const gridfuzz::reports::CsvIoError& e) {
    return fail(e, kEnvironment);
  } catch (const gridfuzz::reports::CsvError& e) {
    return fail(e, kUsage);  // not a gridfuzz CSV, a path a CSV may not be written to, another schema
  } catch (const gridfuzz::InputFileError& e) {
    return fail(e, kUsage);
  } catch (const gridfuzz::OutputPathError& e) {
    return fail(e, kUsage);  // an output path that may not be written: a link, an input, another kind
  } catch (const gridfuzz::FileWriteError& e) {
    return fail(e, kEnvironment);  // an output that cannot be created or written
  } catch (const std::invalid_argument& e) {
    return fail(e, kUsage);  // values a kernel, the ledger or a replay string refuses
  } catch (const std::exception& e) {
    return fail(e, kEnvironment);  // no device, no memory, a read or write error
  }
  return kUsage;
}

}  // namespace
