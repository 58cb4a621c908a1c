#include "gridfuzz/app/child_program.hpp"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "gridfuzz/app/parse.hpp"

extern char** environ;

namespace gridfuzz::app {
namespace {

// SIGINT and SIGQUIT ignored while the child runs (as system(3) does), restored after.
class IgnoreInterrupts {
 public:
  IgnoreInterrupts() {
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGINT, &ignore, &old_int_);
    sigaction(SIGQUIT, &ignore, &old_quit_);
  }
  ~IgnoreInterrupts() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGQUIT, &old_quit_, nullptr);
  }
  IgnoreInterrupts(const IgnoreInterrupts&) = delete;
  IgnoreInterrupts& operator=(const IgnoreInterrupts&) = delete;
  // The signals the child gets back at their default: those gridfuzz found at it, and SIGXFSZ
  // (gridfuzz's main ignores it for itself).
  void defaults_for_child(sigset_t* set) const {
    sigemptyset(set);
    if (old_int_.sa_handler == SIG_DFL) sigaddset(set, SIGINT);
    if (old_quit_.sa_handler == SIG_DFL) sigaddset(set, SIGQUIT);
    sigaddset(set, SIGXFSZ);
  }

 private:
  struct sigaction old_int_ {};
  struct sigaction old_quit_ {};
};

}  // namespace

std::string ChildExit::describe() const {
  if (signal == 0) return "exited with status " + std::to_string(status);
  const char* name = strsignal(signal);
  return "killed by signal " + std::to_string(signal) + (name ? std::string(" (") + name + ")" : "");
}

ChildExit run_child_program(const std::vector<std::string>& argv,
                            const std::vector<std::pair<std::string, std::string>>& set_env) {
  if (argv.empty()) throw UsageError("no program to run");
  std::vector<std::string> env_text;
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    bool replaced = false;
    for (const auto& [name, value] : set_env) replaced = replaced || entry.starts_with(name + "=");
    if (!replaced) env_text.push_back(entry);
  }
  for (const auto& [name, value] : set_env) env_text.push_back(name + "=" + value);
  std::vector<char*> envp, args;
  for (std::string& e : env_text) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> arg_text = argv;
  for (std::string& a : arg_text) args.push_back(a.data());
  args.push_back(nullptr);

  const IgnoreInterrupts ignoring;
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults;
  ignoring.defaults_for_child(&defaults);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, args[0], nullptr, &attr, args.data(), envp.data());
  posix_spawnattr_destroy(&attr);
  if (rc != 0) throw UsageError("cannot run '" + argv[0] + "': " + std::strerror(rc));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error(std::string("waiting for the program: ") + std::strerror(errno));
  }
  ChildExit out;
  if (WIFSIGNALED(status)) {
    out.signal = WTERMSIG(status);
    out.status = 128 + out.signal;
  } else {
    out.status = WEXITSTATUS(status);
  }
  return out;
}

}  // namespace gridfuzz::app
