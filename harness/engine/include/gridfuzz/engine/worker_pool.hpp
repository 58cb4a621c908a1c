#pragma once
// Cases from one queue, run by worker processes: one or more per device. Each worker's thread
// takes the next case as soon as it is free, so a slow case never stalls the others; the cases of
// one reference group it takes together and runs back to back. Several workers on one GPU run
// cases side by side only while their device memory fits together (memory_admission.hpp). A
// verdict must not depend on what ran beside it: a case the model expects to go wrong (a refused
// launch, a wrapping index) runs alone, and a case that did not pass beside others (out of
// memory, a fault reaching it from another context, a wrong result the ledger does not name) runs
// again alone, and that verdict is its own. Cases that must be alone are set aside and run in
// batches (WorkerPoolOptions::alone_batch), so the GPU is emptied once a batch. A worker that dies without a reply is restarted on its device and the case
// tried once more there (the death may have come from outside) before the crash is recorded: no
// case is lost.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gridfuzz/engine/memory_admission.hpp"
#include "gridfuzz/engine/worker_client.hpp"

namespace gridfuzz {

// What a case asks of its GPU when cases share it, and of its worker.
struct CaseNeed {
  std::uint64_t bytes = 0;  // device memory (runner.hpp, case_device_need)
  bool alone = false;       // nothing may run beside it
  // Cases next to each other in the input with the same nonzero group (and the same `alone`) are
  // one worker's, back to back, under one admission: each but the last asks the worker to keep
  // its split reference for the next (shared_reference.hpp). 0: a case of its own.
  std::uint64_t reference_group = 0;
};

struct WorkerPoolOptions {
  double timeout_s = 300;      // one case
  int workers_per_device = 1;  // > 1: cases side by side on one GPU, admitted by memory
  // Device bytes the cases running side by side on one GPU may hold together (the per-case
  // budget); 0: no admission (one worker per device needs none).
  std::uint64_t memory_capacity = 0;
  bool process_per_case = false;  // a fresh worker process for every case (isolation, debugging)
  // Cases that must have a shared GPU alone are set aside and run as one batch under one alone
  // grant, once this many groups wait, the first has waited this long, or nothing else is left:
  // the GPU empties once a batch, not once a case.
  std::size_t alone_batch = 64;
  double alone_wait_s = 15;
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
    bool ran_alone = false;  // run again with the GPU to itself after it did not pass beside others
  };

  // Runs every replay; `on_result` is called (under a lock, in completion order) once per case.
  // `need_of(index)`: what a case needs on its GPU (for the admission; may be empty with one
  // worker per device: then every case needs the whole GPU). Once `should_stop` (when given; called from every worker's thread)
  // returns true, no further case is started: the cases already running finish and are reported,
  // the rest are not. An exception from `on_result`, `need_of` or a worker stops every worker;
  // run() rethrows the first one once all threads have stopped.
  void run(const std::vector<std::string>& replays, const std::function<void(const Result&)>& on_result,
           const std::function<bool()>& should_stop = {},
           const std::function<CaseNeed(std::size_t)>& need_of = {});

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
