#pragma once
// What runs a batch of cases and hands back one record each: the model alone (no GPU), this
// process (debugging), or worker processes, one per GPU. Each judges with the same verdict path
// (runner.hpp); the worker pool also judges the cases whose worker died or hung.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gridfuzz/engine/case_record.hpp"
#include "gridfuzz/engine/environment.hpp"
#include "gridfuzz/engine/runner.hpp"
#include "gridfuzz/engine/worker_pool.hpp"

namespace gridfuzz {

using RecordSink = std::function<void(const Case&, const CaseRecord&)>;

class Executor {
 public:
  virtual ~Executor() = default;
  // Runs the cases, calling `on_record` once per finished case, one call at a time, in completion
  // order (which need not be input order). Once `should_stop()` is true no further case starts;
  // the ones not started get no record. An exception from `on_record` stops the batch and reaches
  // the caller. The cases must be valid for their kernels (the CLI checks them first).
  virtual void run(const std::vector<Case>& cases, const RecordSink& on_record,
                   const std::function<bool()>& should_stop) = 0;
  virtual int worker_restarts() const { return 0; }
};

// Predictions only (predict_case, through the same verdict path): observed and verdict `static`.
class StaticExecutor final : public Executor {
 public:
  explicit StaticExecutor(const Environment& env) : env_(env) {}
  void run(const std::vector<Case>& cases, const RecordSink& on_record, const std::function<bool()>& should_stop) override;

 private:
  const Environment& env_;
};

// Every case in this process, on one device (a fault ends the process: for debugging).
class InProcessExecutor final : public Executor {
 public:
  InProcessExecutor(const Environment& env, int device, const RunOptions& options)
      : env_(env), device_(device), options_(options) {}
  void run(const std::vector<Case>& cases, const RecordSink& on_record, const std::function<bool()>& should_stop) override;

 private:
  const Environment& env_;
  int device_;
  RunOptions options_;
};

// Worker processes, one or more per device (worker_pool.hpp; several share a GPU by the cases'
// memory, case_device_need); a worker that dies or hangs leaves a record judged here from what
// was seen (`fault:worker-<why>`, `timeout`).
class WorkerPoolExecutor final : public Executor {
 public:
  WorkerPoolExecutor(const Environment& env, std::vector<int> devices,
                     std::function<std::vector<std::string>(int device)> make_argv, WorkerPoolOptions options);
  void run(const std::vector<Case>& cases, const RecordSink& on_record, const std::function<bool()>& should_stop) override;
  int worker_restarts() const override { return pool_.restarts(); }

 private:
  CaseRecord record_of(const Case& c, const WorkerReply& reply, int device) const;
  // Whether the case runs with the GPU to itself from the start (CaseNeed::alone).
  bool expected_to_go_wrong(const Case& c, const Prediction& prediction) const;

  const Environment& env_;
  WorkerPool pool_;
};

}  // namespace gridfuzz
