#pragma once
// Runs a shell command and keeps its stdout and stderr apart (run_gridfuzz.hpp merges them): for
// the tests that check what goes where (data on stdout, notes and progress on stderr), and for
// the scripts. Also: a JSON parser we did not write (jq, Debian; scripts/lib.sh installs it) to
// check output against; without it those tests skip, saying why.
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

namespace gridfuzz::testing {

struct SplitResult {
  int exit_code = -1;
  std::string out, err;
};

inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// `command` runs under /bin/sh with stdout and stderr captured separately (stdin: /dev/null).
inline SplitResult run_split(const std::string& command) {
  char err_path[] = "/tmp/gridfuzz-test-stderr-XXXXXX";
  const int fd = mkstemp(err_path);
  SplitResult r;
  if (fd < 0) return r;
  ::close(fd);
  const std::string cmd = "(" + command + ") </dev/null 2>" + shell_quote(err_path);
  if (FILE* pipe = popen(cmd.c_str(), "r")) {
    std::array<char, 4096> buf{};
    std::size_t n = 0;
    while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) r.out.append(buf.data(), n);
    const int status = pclose(pipe);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  std::ifstream f(err_path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  r.err = s.str();
  ::unlink(err_path);
  return r;
}

inline SplitResult run_gridfuzz_split(const std::string& args, const std::string& env = "") {
  return run_split(env + (env.empty() ? "" : " ") + shell_quote(GRIDFUZZ_BINARY) + " " + args);
}

inline bool have_program(const std::string& name) {
  return std::system(("command -v " + name + " >/dev/null 2>&1").c_str()) == 0;
}

// A command that reads JSON on stdin and exits 0 only when the jq expression `filter` is true for
// it (jq -e: 1 for false or null, 2+ for input that is not JSON). nullopt without jq.
inline std::optional<std::string> jq_check(const std::string& filter) {
  if (!have_program("jq")) return std::nullopt;
  return "jq -e " + shell_quote(filter) + " >/dev/null";
}

// Writes `text` to a temporary file and runs `command` with it on stdin.
inline SplitResult run_with_input(const std::string& text, const std::string& command) {
  char path[] = "/tmp/gridfuzz-test-input-XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return {};
  ::close(fd);
  std::ofstream(path, std::ios::binary) << text;
  SplitResult r = run_split(command + " < " + shell_quote(path));
  ::unlink(path);
  return r;
}

// The same, only the exit code.
inline int pipe_text_into(const std::string& text, const std::string& command) {
  return run_with_input(text, command).exit_code;
}

}  // namespace gridfuzz::testing
