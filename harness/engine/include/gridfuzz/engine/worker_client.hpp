#pragma once
// The parent's side of worker isolation. Cases run in a child process; a sticky fault, a crash or
// a hang past the timeout kills only the child. The client restarts it for the next case and the
// run goes on; the parent never touches the GPU itself.
#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

#include "gridfuzz/engine/case_record.hpp"

namespace gridfuzz {

struct WorkerReply {
  enum class Status { record, crashed, timed_out } status = Status::record;
  CaseRecord record;       // when status == record
  std::string reason;      // "signal 11", "exit 3", "no reply in 120 s"
};

class WorkerClient {
 public:
  // `argv` starts the worker (argv[0] is an executable path); `timeout_s` bounds one case.
  WorkerClient(std::vector<std::string> argv, double timeout_s);
  ~WorkerClient();
  WorkerClient(const WorkerClient&) = delete;
  WorkerClient& operator=(const WorkerClient&) = delete;

  // `keep_reference`: the next case is of the same shape (worker_protocol.hpp).
  WorkerReply run(const std::string& replay, bool keep_reference = false);
  // Ends the worker after its case (its input closed, it exits), so the next case starts a fresh
  // one; that start is not counted as a restart.
  void retire();
  int restarts() const { return restarts_; }

 private:
  void start();
  void stop();                       // kill and reap
  std::string reap_reason();         // waits for the child, describes how it ended (+ its crash note)

  std::vector<std::string> argv_;
  double timeout_s_;
  pid_t pid_ = -1;
  int to_child_ = -1, from_child_ = -1;
  int restarts_ = 0;
  bool started_once_ = false;
  bool retired_ = false;             // the next start follows a retire(), not a death
  std::string note_path_;            // the worker's crash-note file (crash_note.hpp), one per client
};

}  // namespace gridfuzz
