#include "gridfuzz/engine/executor.hpp"

namespace gridfuzz {

WorkerPoolExecutor::WorkerPoolExecutor(const Environment& env, std::vector<int> devices,
                                       std::function<std::vector<std::string>(int)> make_argv,
                                       WorkerPoolOptions options)
    : env_(env), pool_(std::move(devices), std::move(make_argv), options) {}

CaseRecord WorkerPoolExecutor::record_of(const Case& c, const WorkerReply& reply, int device) const {
  if (reply.status == WorkerReply::Status::record) {
    CaseRecord record = reply.record;
    record.context.run_id = env_.context.run_id;  // the worker's records belong to this run
    return record;
  }
  const Observed seen = reply.status == WorkerReply::Status::timed_out
                            ? Observed{Observed::Kind::timeout, ""}
                            : Observed{Observed::Kind::fault, "worker-" + reply.reason};
  RunContext context = env_.context;
  context.device_index = device;
  return make_record(judge_without_result(env_.kernel(c.kernel), c, env_.limits, env_.ledger, seen), context);
}

void WorkerPoolExecutor::run(const std::vector<Case>& cases, const RecordSink& on_record,
                             const std::function<bool()>& should_stop) {
  std::vector<std::string> replays;
  replays.reserve(cases.size());
  for (const Case& c : cases) replays.push_back(c.replay());
  // What each case needs on its GPU, from its buffer specs (host only): bound once, when taken.
  const auto bytes_of = [&](std::size_t i) {
    const Case& c = cases[i];
    return case_device_need(*bind_case(env_.kernel(c.kernel), c.params, c.variant));
  };
  pool_.run(
      replays,
      [&](const WorkerPool::Result& r) { on_record(cases[r.index], record_of(cases[r.index], r.reply, r.device)); },
      should_stop, bytes_of);
}

}  // namespace gridfuzz
