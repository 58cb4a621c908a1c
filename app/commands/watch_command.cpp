// `gridfuzz watch [--csv F] [--markdown F] [--log F] -- COMMAND [ARGS...]`: runs any CUDA program,
// unmodified, with gridfuzz's CUPTI injection library (harness/watch/injection), which records
// every kernel launch it makes into a launch log as it runs; then judges every launch with the
// geometry model against the device's limits (or --device-preset) and reports per kernel how close
// it came to each limit, ranked. `--read-log F` judges a log written earlier instead of running.
// The program's exit status is gridfuzz's (128 + N for a signal); gridfuzz's own errors are 2/3.
// docs/WATCH.md.
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <stdexcept>

#include "gridfuzz/app/child_program.hpp"
#include "gridfuzz/app/commands.hpp"
#include "gridfuzz/app/parse.hpp"
#include "gridfuzz/core/output_file.hpp"
#include "gridfuzz/core/text_file.hpp"
#include "gridfuzz/reports/text_escape.hpp"
#include "gridfuzz/reports/watch_report.hpp"
#include "gridfuzz/watch/launch_headroom.hpp"
#include "gridfuzz/watch/launch_log.hpp"

#ifndef GRIDFUZZ_INSTALL_LIBDIR
#error "GRIDFUZZ_INSTALL_LIBDIR is set by app/CMakeLists.txt"
#endif

namespace gridfuzz::app {
namespace {

namespace fs = std::filesystem;
using reports::terminal_text;

constexpr const char* kLibraryName = "libgridfuzz_watch.so";

struct WatchArgs {
  std::vector<std::string> command;
  std::string csv, markdown, log, read_log;
};

// The injection library: $GRIDFUZZ_WATCH_LIBRARY, else beside the gridfuzz binary (the build
// tree), else in ../<libdir>/gridfuzz (installed).
fs::path injection_library() {
  if (const char* env = std::getenv("GRIDFUZZ_WATCH_LIBRARY"); env && *env) {
    if (!fs::is_regular_file(env)) throw std::runtime_error(std::string("GRIDFUZZ_WATCH_LIBRARY=") + env + " is not a file");
    return fs::absolute(env);
  }
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    for (const fs::path& candidate :
         {exe.parent_path() / kLibraryName, exe.parent_path().parent_path() / GRIDFUZZ_INSTALL_LIBDIR / "gridfuzz" / kLibraryName})
      if (fs::is_regular_file(candidate)) return candidate;
  }
  throw std::runtime_error(std::string(kLibraryName) + " not found beside gridfuzz (" + exe.string() + ") nor in ../" +
                      GRIDFUZZ_INSTALL_LIBDIR + "/gridfuzz; set GRIDFUZZ_WATCH_LIBRARY");
}

// A private folder for the log when --log names none; removed with it at the end.
class ScratchFolder {
 public:
  ScratchFolder() {
    std::string tmpl = (fs::temp_directory_path() / "gridfuzz-watch-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw FileWriteError("cannot create a folder for the launch log in " + fs::temp_directory_path().string());
    path_ = tmpl;
  }
  ~ScratchFolder() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// Creates the empty log the injection library appends to (it never creates one itself).
void create_log(const fs::path& path, const std::string& option) {
  const int fd = create_new_file(path, O_WRONLY);
  if (fd < 0) {
    if (errno == EEXIST) throw OutputPathError(option + ": " + path.string() + " exists; name a new file");
    throw FileWriteError(option + ": cannot create " + path.string() + ": " + std::strerror(errno));
  }
  close(fd);
}

// The command's input, which no output may name: the launch log (read or kept).
std::vector<std::pair<std::string, fs::path>> log_input(const WatchArgs& a) {
  const std::string& log = a.read_log.empty() ? a.log : a.read_log;
  if (log.empty()) return {};
  return {{"the launch log", log}};
}

OutputFile csv_output(const WatchArgs& a) {
  return OutputFile{a.csv, "--csv", "a gridfuzz watch CSV",
                    [](std::string_view head) { return head.starts_with(reports::watch_csv_header()); }, log_input(a)};
}

OutputFile markdown_output(const WatchArgs& a) {
  return OutputFile{a.markdown, "--markdown", "a gridfuzz watch Markdown section",
                    [](std::string_view head) { return head.starts_with("## Launch headroom\n"); }, log_input(a)};
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

// Judges the log and prints; writes --csv and --markdown.
void report(const WatchArgs& a, const std::string& log_text, const SelectedLimits& sel) {
  const watch::LaunchLog log = watch::read_launch_log(log_text);
  for (const std::string& p : log.problems) std::cerr << "note: launch log: " << terminal_text(p) << " (skipped)\n";
  for (const std::string& n : log.notes) std::cerr << "note: injection library: " << terminal_text(n) << "\n";
  if (log.dropped > 0)
    std::cerr << "note: " << log.dropped << " launch(es) counted but not recorded (too many different launches)\n";
  const std::vector<watch::KernelHeadroom> kernels = watch::judge_launches(log.launches, sel.limits);
  std::uint64_t launches = 0, refused = 0, zero = 0;
  for (const auto& k : kernels) {
    launches += k.launches;
    refused += k.refused;
    zero += k.zero_grids;
  }
  if (kernels.empty()) {
    std::cout << "watch: no kernel launch was recorded ("
              << (log.processes.empty() ? "the program never initialised the CUDA driver, so the injection library was not loaded"
                                        : "the program made none")
              << ")\n";
  } else {
    std::cout << "watch: " << launches << " launch(es) of " << kernels.size() << " kernel(s) in "
              << log.processes.size() << " process(es), judged against " << terminal_text(sel.limits.name) << " (cc "
              << sel.limits.cc() << "): " << refused << " refused, " << zero << " with a zero grid\n"
              << reports::watch_console_table(kernels);
  }
  if (!a.csv.empty()) write_output_file(csv_output(a), reports::watch_csv(kernels));
  if (!a.markdown.empty())
    write_output_file(markdown_output(a), reports::watch_markdown(kernels, sel.limits, joined(a.command)));
}

int watch_program(const WatchArgs& a, const GlobalOptions& global) {
  const bool reading = !a.read_log.empty();
  if (reading && !a.command.empty()) throw UsageError("watch: --read-log judges a log; it runs no command");
  if (reading && !a.log.empty()) throw UsageError("watch: --read-log and --log exclude each other");
  if (!reading) {
    const bool after_dashes = global.after_dashes && !global.after_dashes->empty();
    if (a.command.empty())
      throw UsageError("watch: no command to run: gridfuzz watch [options] -- COMMAND [ARGS...]");
    if (!after_dashes || *global.after_dashes != a.command)
      throw UsageError("watch: put the command after '--': gridfuzz watch [options] -- COMMAND [ARGS...]");
  }
  if (!a.csv.empty()) check_output_file(csv_output(a));
  if (!a.markdown.empty()) check_output_file(markdown_output(a));
  const SelectedLimits sel = select_limits(global.device);
  if (!sel.note.empty()) std::cerr << "note: " << sel.note << "\n";
  if (reading) {
    report(a, read_text_file(a.read_log, "the launch log"), sel);
    return kOk;
  }

  const fs::path library = injection_library();
  std::optional<ScratchFolder> scratch;
  fs::path log_path = a.log;
  if (log_path.empty()) {
    scratch.emplace();
    log_path = scratch->path() / "launches.log";
  }
  log_path = fs::absolute(log_path);  // the program may change its folder
  create_log(log_path, "--log");
  if (const char* other = std::getenv("CUDA_INJECTION64_PATH"); other && *other)
    std::cerr << "note: CUDA_INJECTION64_PATH=" << terminal_text(other) << " is replaced for the program\n";
  std::cerr << "watch: running " << terminal_text(joined(a.command)) << "\n";
  const ChildExit exit =
      run_child_program(a.command, {{"CUDA_INJECTION64_PATH", library.string()}, {watch::kLogPathVariable, log_path.string()}});
  std::cerr << "watch: " << terminal_text(a.command.front()) << " " << exit.describe() << "\n";
  report(a, read_text_file(log_path.string(), "the launch log"), sel);
  if (!a.log.empty()) std::cerr << "note: the launch log is " << terminal_text(log_path.string()) << "\n";
  return exit.status;
}

}  // namespace

Runner add_watch_command(CLI::App& app, const GlobalOptions& global) {
  auto a = std::make_shared<WatchArgs>();
  auto* cmd = app.add_subcommand("watch",
                                 "run a CUDA program unmodified, record every kernel launch it makes (CUPTI) and "
                                 "report per kernel how close it comes to each launch limit");
  cmd->add_option("command", a->command, "the program and its arguments, after '--'");
  cmd->add_option("--csv", a->csv, "also write the per-kernel table as CSV to this file (docs/WATCH.md)");
  cmd->add_option("--markdown", a->markdown, "also write the table as a Markdown section to this file");
  cmd->add_option("--log", a->log, "keep the launch log in this new file (default: a scratch file, removed)");
  cmd->add_option("--read-log", a->read_log, "judge a launch log written earlier (--log) instead of running a command");
  return [a, &global]() -> int { return watch_program(*a, global); };
}

}  // namespace gridfuzz::app
