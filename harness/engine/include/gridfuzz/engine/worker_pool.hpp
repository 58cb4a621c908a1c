#pragma once
// Cases from one queue, run by worker processes: one or more per device. Each worker's thread
// takes the next case as soon as it is free, so a slow case never stalls the others. Several
// workers on one GPU run cases side by side only while their device memory fits together
// (memory_admission.hpp); a case that ran out of memory beside others runs again alone, so its
// verdict is the one it has with the GPU to itself. A worker that dies without a reply is
// restarted on its device and the case tried once more there (the death may have come from
// outside) before the crash is recorded: no case is lost.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gridfuzz/engine/memory_admission.hpp"
#include "gridfuzz/engine/worker_client.hpp"

namespace gridfuzz {

struct WorkerPoolOptions {
  double timeout_s = 300;      // one case
  int workers_per_device = 1;  // > 1: cases side by side on one GPU, admitted by memory
  // Device bytes the cases running side by side on one GPU may hold together (the per-case
  // budget); 0: no admission (one worker per device needs none).
  std::uint64_t memory_capacity = 0;
  bool process_per_case = false;  // a fresh worker process for every case (isolation, debugging)
};

class WorkerPool {
 public:
  // `make_argv(device)`: the worker command line for one device.
  WorkerPool(std::vector<int> devices, std::function<std::vector<std::string>(int device)> make_argv,
             WorkerPoolOptions options);

  struct Result {
    std::size_t index = 0;   // position of the case in the input
    int device = 0;
    WorkerReply reply;
    int attempts = 1;
    bool ran_alone = false;  // run again with the GPU to itself after running out of memory beside others
  };

  // Runs every replay; `on_result` is called (under a lock, in completion order) once per case.
  // `bytes_of(index)`: the device memory a case needs (for the admission; may be empty with one
  // worker per device). Once `should_stop` (when given; called from every worker's thread)
  // returns true, no further case is started: the cases already running finish and are reported,
  // the rest are not. An exception from `on_result`, `bytes_of` or a worker stops every worker;
  // run() rethrows the first one once all threads have stopped.
  void run(const std::vector<std::string>& replays, const std::function<void(const Result&)>& on_result,
           const std::function<bool()>& should_stop = {},
           const std::function<std::uint64_t(std::size_t)>& bytes_of = {});

  const std::vector<int>& devices() const { return devices_; }
  int workers() const { return static_cast<int>(slots_.size()); }
  int restarts() const;

 private:
  struct Slot {
    int device = 0;
    std::unique_ptr<WorkerClient> worker;
    MemoryAdmission* admission = nullptr;  // its device's, when cases share the GPU
  };

  std::vector<int> devices_;
  WorkerPoolOptions options_;
  std::vector<std::unique_ptr<MemoryAdmission>> admissions_;  // one per device, when shared
  std::vector<Slot> slots_;
};

// "all" (with `available` devices), or "0,2,3" -> ordinals, in the order given. Throws
// std::invalid_argument for a malformed or repeated item or "all" of none, std::out_of_range for
// an ordinal >= available.
std::vector<int> parse_device_list(const std::string& text, int available);

}  // namespace gridfuzz
