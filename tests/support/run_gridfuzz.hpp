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

inline CommandResult run_gridfuzz(const std::string& args) {
  const std::string cmd = std::string(GRIDFUZZ_BINARY) + " " + args + " 2>&1";
  CommandResult r;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buf{};
  while (fgets(buf.data(), buf.size(), pipe)) r.output += buf.data();
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

}  // namespace gridfuzz::testing
