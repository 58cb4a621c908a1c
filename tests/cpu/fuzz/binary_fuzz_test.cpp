// The gridfuzz binary with one mutated argument: the values its commands parse themselves
// (plan --grid, --set, run ranges and lists, replay strings and CSV:ROW, bisect --range, sweep
// --shard, diff --threshold), end to end, with the error handling of main() around them. Static
// analysis only (--device-preset / --static), so the result is the same with or without a GPU.
//
// Bad input is exit 2 (UsageError) and a found problem exit 1 (docs: "exit codes"); it is never a
// crash, a sanitizer report, a hang, or exit 3 (an environment error: the input is at fault).
// What the binary prints never carries a control character (an escape sequence in an argument
// must not reach the terminal).
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "fuzz_support.hpp"

extern char** environ;

namespace gridfuzz::fuzz {
namespace {

struct Run {
  int exit_code = -1;  // 128 + signal when killed
  bool timed_out = false;
  std::string output;  // stdout and stderr
};

// Runs the binary with `args` (no shell: the bytes reach argv as they are) in `cwd`.
Run run_binary(const std::vector<std::string>& args, const std::filesystem::path& cwd, int timeout_s = 60) {
  Run r;
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error("pipe");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDERR_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  std::vector<char*> argv{const_cast<char*>(GRIDFUZZ_BINARY)};
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int spawned = posix_spawn(&pid, GRIDFUZZ_BINARY, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(out[1]);
  if (spawned != 0) {
    ::close(out[0]);
    throw std::runtime_error("cannot start " + std::string(GRIDFUZZ_BINARY));
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  char buf[65536];
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      ::kill(pid, SIGKILL);
      r.timed_out = true;
      break;
    }
    pollfd p{out[0], POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left)) <= 0) continue;
    const ssize_t n = ::read(out[0], buf, sizeof(buf));
    if (n <= 0) break;
    if (r.output.size() < (1u << 20)) r.output.append(buf, static_cast<std::size_t>(n));
  }
  ::close(out[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

const std::filesystem::path& work_dir() {
  struct Dir {
    std::filesystem::path path;
    Dir() {
      path = std::filesystem::temp_directory_path() / ("gridfuzz-fuzz-cli-" + std::to_string(::getpid()));
      std::filesystem::create_directories(path);
      // replay CSV:ROW reads this one.
      std::filesystem::copy_file(GRIDFUZZ_SOURCE_DIR "/baselines/nvidia-h200.csv", path / "runs.csv");
    }
    ~Dir() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  };
  static const Dir dir;
  return dir.path;
}

// A command line with one argument to mutate: args[slot] is replaced by a mutated seed.
struct Template {
  std::vector<std::string> args;
  std::size_t slot;
  std::vector<std::string> seeds;
  std::string separators;
};

const std::vector<Template>& templates() {
  const std::string baseline = GRIDFUZZ_SOURCE_DIR "/baselines/nvidia-h200.csv";
  static const std::vector<Template> all{
      {{"plan", "--grid", "", "--block", "32", "--device-preset", "sm_90"}, 2, {"1,1,65535", "2147483647,1", "18446744073709551615,4294967296,65536"}, ","},
      {{"plan", "gguf.moe_vec", "--set", "", "--device-preset", "sm_90"}, 3, {"tokens=8192", "quant=q4_0"}, "=,:"},
      {{"run", "gguf.moe_vec", "--variant", "fixed", "--set", "", "--static", "--device-preset", "sm_90"},
       5,
       {"tokens=8190:8194", "tokens=1,2,65536", "top_k=1:8:7", "tokens=18446744073709551614:18446744073709551615"},
       "=,:"},
      {{"replay", "", "--static", "--device-preset", "sm_90"},
       1,
       {"gguf.moe_vec/legacy/1/quant=q4_0,rows=4096,tokens=8192,top_k=8",
        "affine.gather_qmm/legacy/1/bits=4,cols=4096,dtype=bf16,experts=128,group_size=64,rows=768,tokens=16,top_k=8",
        "runs.csv:3"},
       "/,=:"},
      {{"bisect", "gguf.moe_vec", "--axis", "tokens", "--range", "", "--static", "--device-preset", "sm_90"},
       5,
       // Near the int64 / uint64 edges: one digit changed crosses them.
       {"8190:8194", "1:65536", "9223372036854775806:9223372036854775807", "18446744073709551615:18446744073709551615"},
       ":"},
      {{"sweep", "gguf.quantize_q8_1", "--cases", "0", "--shard", "", "--static", "--device-preset", "sm_90", "--csv",
        "sweep.csv"},
       5,
       {"1/2", "2/2", "18446744073709551615/18446744073709551615"},
       "/"},
      {{"diff", baseline, baseline, "--threshold", ""}, 4, {"10%", "0.1", "1e308%", "0x1p-1074"}, "%."},
  };
  return all;
}

Run run_mutated_command() {
  const auto& all = templates();
  const Template& t = all[*rc::gen::inRange<std::size_t>(0, all.size())];
  std::string arg = mutated(t.seeds, t.separators);
  arg = arg.substr(0, arg.find('\0'));  // argv strings end at NUL
  std::vector<std::string> args = t.args;
  args[t.slot] = arg;
  std::string line = "gridfuzz";
  for (const auto& a : args) {
    line += ' ';
    line += cpp_literal(a);
  }
  RC_LOG() << "command: " << line << "\n";
  const std::filesystem::path csv = work_dir() / "sweep.csv";
  std::filesystem::remove(csv);
  Run r = run_binary(args, work_dir());
  RC_LOG() << "exit " << r.exit_code << (r.timed_out ? " (timed out)" : "") << ", output: " << cpp_literal(r.output.substr(0, 4000))
           << "\n";
  return r;
}

}  // namespace

FUZZ_PROP(FuzzCliBinary, BadArgumentsAreExit2NeverACrash, 60) {
  const Run r = run_mutated_command();
  RC_ASSERT(!r.timed_out);
  RC_ASSERT(r.output.find("Sanitizer") == std::string::npos);
  RC_ASSERT(r.output.find("runtime error:") == std::string::npos);
  RC_ASSERT(r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 2);
}

FUZZ_PROP(FuzzCliBinary, OutputHoldsNoControlCharacter, 40) {
  const Run r = run_mutated_command();
  RC_ASSERT(!has_control_character(r.output, "\n"));
}

// Found by BadArgumentsAreExit2NeverACrash (seed 16139100035384071085, 200x): a replay string
// without one of an affine kernel's axes was exit 3 ("no value for axis 'top_k'" escaping the
// kernel's check()). Session::validate now requires every axis first: exit 2 for every kernel.
TEST(FuzzCliBinary, ReplayWithoutAnAxisIsExit2) {
  for (const std::string replay : {"affine.gather_qmm/legacy/1/bits=4", "affine.qmm/legacy/1/", "gguf.moe_vec/fixed/1/"}) {
    const auto r = run_binary({"replay", replay, "--static", "--device-preset", "sm_90"}, work_dir());
    EXPECT_EQ(r.exit_code, 2) << "gridfuzz replay " << replay << " --static --device-preset sm_90\n" << r.output;
    EXPECT_NE(r.output.find("no value for axis"), std::string::npos) << r.output;
  }
}

}  // namespace gridfuzz::fuzz
