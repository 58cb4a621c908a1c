#include "gridfuzz/reports/gnuplot_script.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <sstream>
#include <string_view>

#include "gridfuzz/reports/text_escape.hpp"

extern char** environ;

namespace gridfuzz::reports {

namespace fs = std::filesystem;

std::string gnuplot_prologue(const fs::path& dir) {
  std::error_code ec;
  fs::path absolute = fs::absolute(dir, ec);
  if (ec) absolute = dir;
  std::string fallback = absolute.lexically_normal().string();
  if (fallback.empty() || fallback.back() != '/') fallback += '/';
  std::ostringstream gp;
  gp << "# Written by gridfuzz report. Draw it from any folder: gnuplot PATH/TO/THIS.gp\n"
     << "# Data and pictures are beside this script: its folder comes from ARG0 (its path as given\n"
     << "# to gnuplot); piped into gnuplot (no ARG0) it uses gf_here if set, else the folder where\n"
     << "# it was written.\n"
     << "gf_cut = 0\n"
     << "if (exists(\"gf_here\")) {\n"
     << "  here = gf_here\n"
     << "} else {\n"
     << "  if (exists(\"ARG0\") && strlen(ARG0) > 0) {\n"
     << "    do for [gf_i = 1:strlen(ARG0)] { if (ARG0[gf_i:gf_i] eq \"/\") { gf_cut = gf_i } }\n"
     << "    here = ARG0[1:gf_cut]\n"
     << "  } else {\n"
     << "    here = " << gnuplot_string(fallback) << "\n"
     << "  }\n"
     << "}\n";
  return gp.str();
}

std::string beside_script(const std::string& file_name) { return "here." + gnuplot_string(file_name); }

std::string png_and_svg(const std::string& stem, int width, int height, const std::string& body) {
  std::ostringstream gp;
  gp << "\n# PNG\nreset\nset terminal pngcairo size " << width << "," << height << " noenhanced font ',10'\n"
     << "set output " << beside_script(stem + ".png") << "\n"
     << body << "\nset output\n"
     << "\n# SVG (the same commands)\nreset\nset terminal svg size " << width << "," << height
     << " noenhanced font 'sans,10' background rgb 'white'\n"
     << "set output " << beside_script(stem + ".svg") << "\n"
     << body << "\nset output\n";
  return gp.str();
}

std::optional<fs::path> find_program(const std::string& name) {
  if (name.empty()) return std::nullopt;
  if (name.find('/') != std::string::npos)
    return access(name.c_str(), X_OK) == 0 ? std::optional<fs::path>(name) : std::nullopt;
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const fs::path candidate = fs::path(dir.empty() ? "." : dir) / name;
    if (access(candidate.c_str(), X_OK) == 0 && !fs::is_directory(candidate)) return candidate;
  }
  return std::nullopt;
}

bool run_gnuplot(const fs::path& program, const std::string& script, const fs::path& here, int log_fd) {
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return false;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  // dup2 clears close-on-exec on the copies: the child keeps exactly stdin, stdout and stderr.
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, log_fd, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, log_fd, STDERR_FILENO);
  std::string arg0 = program.string();
  char* argv[] = {arg0.data(), nullptr};
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[0]);
  if (rc != 0) {
    ::close(pipe_fds[1]);
    return false;
  }
  std::string dir = here.string();
  if (dir.empty() || dir.back() != '/') dir += '/';
  const std::string input = "gf_here = " + gnuplot_string(dir) + "\n" + script;
  // A gnuplot that dies early closes the pipe: that is its failure, not a SIGPIPE for gridfuzz.
  struct sigaction ignore {}, previous {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGPIPE, &ignore, &previous);
  bool written = true;
  for (std::string_view rest = input; !rest.empty();) {
    const ssize_t n = ::write(pipe_fds[1], rest.data(), rest.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      written = false;
      break;
    }
    rest.remove_prefix(static_cast<std::size_t>(n));
  }
  ::close(pipe_fds[1]);
  sigaction(SIGPIPE, &previous, nullptr);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return false;
  return written && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace gridfuzz::reports
