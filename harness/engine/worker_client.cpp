#include "gridfuzz/engine/worker_client.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "gridfuzz/crash_note.hpp"
#include "gridfuzz/engine/worker_protocol.hpp"

extern char** environ;

namespace gridfuzz {

WorkerClient::WorkerClient(std::vector<std::string> argv, double timeout_s)
    : argv_(std::move(argv)), timeout_s_(timeout_s) {
  if (argv_.empty()) throw std::invalid_argument("WorkerClient: empty command");
  // A child that dies while we write must not kill the parent.
  signal(SIGPIPE, SIG_IGN);
  // The file a dying worker leaves its last words in (crash_note.hpp).
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/gridfuzz-crash-note-XXXXXX";
  const int fd = mkstemp(pattern.data());
  if (fd >= 0) {
    close(fd);
    note_path_ = pattern;
  }
}

WorkerClient::~WorkerClient() {
  stop();
  if (!note_path_.empty()) unlink(note_path_.c_str());
}

void WorkerClient::start() {
  int down[2], up[2];
  if (pipe2(down, O_CLOEXEC) != 0 || pipe2(up, O_CLOEXEC) != 0)
    throw std::runtime_error(std::string("worker: pipe failed: ") + std::strerror(errno));
  std::vector<char*> args;
  for (auto& a : argv_) args.push_back(a.data());
  args.push_back(nullptr);
  // The child's environment: ours plus the crash-note file, built before fork (no allocation after).
  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e)
    if (std::string(*e).rfind(std::string(kCrashNoteEnv) + "=", 0) != 0) env_strings.emplace_back(*e);
  if (!note_path_.empty()) env_strings.push_back(std::string(kCrashNoteEnv) + "=" + note_path_);
  std::vector<char*> envp;
  for (auto& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(std::string("worker: fork failed: ") + std::strerror(errno));
  if (pid == 0) {
    dup2(down[0], STDIN_FILENO);
    dup2(up[1], STDOUT_FILENO);
    execve(args[0], args.data(), envp.data());
    _exit(127);
  }
  close(down[0]);
  close(up[1]);
  pid_ = pid;
  to_child_ = down[1];
  from_child_ = up[0];
  if (started_once_ && !retired_) ++restarts_;
  started_once_ = true;
  retired_ = false;
}

std::string WorkerClient::reap_reason() {
  int status = 0;
  if (waitpid(pid_, &status, 0) < 0) return "lost";
  std::string how = WIFSIGNALED(status)
                        ? std::string("signal ") + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")"
                        : "exit " + std::to_string(WEXITSTATUS(status));
  if (!note_path_.empty())
    if (const std::string note = take_crash_note(note_path_); !note.empty()) how += ": " + note;
  return how;
}

void WorkerClient::stop() {
  if (pid_ <= 0) return;
  close(to_child_);
  kill(pid_, SIGKILL);
  reap_reason();
  close(from_child_);
  pid_ = -1;
}

void WorkerClient::retire() {
  if (pid_ > 0) {
    close(to_child_);  // end of input: the worker returns from its loop and exits
    reap_reason();
    close(from_child_);
    pid_ = -1;
  }
  retired_ = true;
}

WorkerReply WorkerClient::run(const std::string& replay, bool keep_reference) {
  // A worker that exited after its last case (sticky fault) is replaced first.
  if (pid_ > 0) {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      close(to_child_);
      close(from_child_);
      pid_ = -1;
    }
  }
  const auto asked = std::chrono::steady_clock::now();
  if (pid_ <= 0) start();

  WorkerReply reply;
  const std::string request = case_request_line({replay, keep_reference});
  if (write(to_child_, request.data(), request.size()) != static_cast<ssize_t>(request.size())) {
    close(to_child_);
    close(from_child_);
    reply.status = WorkerReply::Status::crashed;
    reply.reason = reap_reason();
    pid_ = -1;
    return reply;
  }
  ReplyParser parser;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s_);
  char buf[65536];
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      stop();
      reply.status = WorkerReply::Status::timed_out;
      reply.reason = "no reply in " + std::to_string(static_cast<long>(timeout_s_)) + " s";
      return reply;
    }
    pollfd p{from_child_, POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    const ssize_t n = read(from_child_, buf, sizeof(buf));
    if (n > 0) {
      if (parser.feed(buf, static_cast<std::size_t>(n))) {
        reply.record = parser.record();
        // The wait beyond the runner's own time: the worker's start when it started for this case,
        // else the pipe and the record's coding.
        const double waited = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - asked).count();
        reply.record.phases.worker_ms = std::max(0.0, waited - reply.record.phases.case_ms);
        if (reply.record.context_lost) {  // it said it will exit: reap it now, start a new one next time
          close(to_child_);
          reap_reason();
          close(from_child_);
          pid_ = -1;
        }
        return reply;
      }
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    // End of file before a whole reply: the worker died.
    close(to_child_);
    close(from_child_);
    reply.status = WorkerReply::Status::crashed;
    reply.reason = reap_reason();
    pid_ = -1;
    return reply;
  }
}

}  // namespace gridfuzz
