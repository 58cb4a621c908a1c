#pragma once
// Cases from one queue, run by one worker process per device. Each device's thread takes the next
// case as soon as it is free, so a slow case on one GPU never stalls the others. A worker that dies
// without a reply is restarted on its device and the case tried once more there (the death may
// have come from outside) before the crash is recorded: no case is lost.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gridfuzz/engine/worker_client.hpp"

namespace gridfuzz {

class WorkerPool {
 public:
  // `make_argv(device)`: the worker command line for one device.
  WorkerPool(std::vector<int> devices, std::function<std::vector<std::string>(int device)> make_argv,
             double timeout_s);

  struct Result {
    std::size_t index = 0;   // position of the case in the input
    int device = 0;
    WorkerReply reply;
    int attempts = 1;
  };

  // Runs every replay; `on_result` is called (under a lock, in completion order) once per case.
  // Once `should_stop` (when given; called from every device's thread) returns true, no further
  // case is started: the cases already running finish and are reported, the rest are not.
  // An exception from `on_result` or a worker stops every device; run() rethrows the first one
  // once all threads have stopped.
  void run(const std::vector<std::string>& replays, const std::function<void(const Result&)>& on_result,
           const std::function<bool()>& should_stop = {});

  const std::vector<int>& devices() const { return devices_; }
  int restarts() const;

 private:
  std::vector<int> devices_;
  std::vector<std::unique_ptr<WorkerClient>> workers_;
};

// "all" (with `available` devices), or "0,2,3" -> ordinals, in the order given. Throws
// std::invalid_argument for a malformed or repeated item or "all" of none, std::out_of_range for
// an ordinal >= available.
std::vector<int> parse_device_list(const std::string& text, int available);

}  // namespace gridfuzz
