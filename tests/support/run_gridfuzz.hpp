#pragma once
// Runs the built gridfuzz binary (GRIDFUZZ_BINARY, a compile definition) with arguments, as a user
// would, and returns its exit code and combined output. Used by the CLI tests of every area.
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace gridfuzz::testing {

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

// Runs a shell command line, its stdout and stderr through one pipe.
inline CommandResult run_shell(const std::string& cmd) {
  CommandResult r;
  FILE* pipe = popen((cmd + " 2>&1").c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buf{};
  while (fgets(buf.data(), buf.size(), pipe)) r.output += buf.data();
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

inline CommandResult run_gridfuzz(const std::string& args) { return run_shell(std::string(GRIDFUZZ_BINARY) + " " + args); }

// gridfuzz after a shell prefix (a ulimit, a redirection), as `PREFIX; exec gridfuzz ARGS`.
inline CommandResult run_gridfuzz_after(const std::string& prefix, const std::string& args) {
  return run_shell(prefix + "; exec " + std::string(GRIDFUZZ_BINARY) + " " + args);
}

// Lines in a command's output (newlines counted).
inline std::size_t lines_of(const std::string& text) {
  std::size_t n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

}  // namespace gridfuzz::testing
