#include "gridfuzz/engine/executor.hpp"

#include <functional>

#include "gridfuzz/engine/shared_reference.hpp"

namespace gridfuzz {

WorkerPoolExecutor::WorkerPoolExecutor(const Environment& env, std::vector<int> devices,
                                       std::function<std::vector<std::string>(int)> make_argv,
                                       WorkerPoolOptions options)
    : env_(env), pool_(std::move(devices), std::move(make_argv), options) {}

bool WorkerPoolExecutor::expected_to_go_wrong(const Case& c, const Prediction& prediction) const {
  if (!prediction.accepted() || prediction.index_wrap() != "safe") return true;
  if (env_.ledger.expects_failure(c.kernel, c.variant, prediction)) return true;
  // Before the case runs nothing is observed: a condition that reads `observed` does not hold.
  const std::vector<std::pair<std::string, std::string>> axes(c.params.values().begin(), c.params.values().end());
  const ConditionLookup lookup =
      case_condition_lookup(axes, predicted_outcome(prediction).to_string(), "", index_wrap_of(prediction).to_string());
  return env_.ledger.known_failure(c.kernel, c.variant, FailureKind::fault, lookup) != nullptr;
}

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
  // The variants of one shape next to each other, so that one worker runs them back to back and
  // they can share the split reference (shared_reference.hpp).
  const std::vector<std::size_t> order = reference_group_order(cases);
  std::vector<std::string> replays;
  replays.reserve(cases.size());
  for (std::size_t i : order) replays.push_back(cases[i].replay());
  // What each case needs on its GPU (host only, bound once, when taken): its buffers' bytes, and
  // the GPU to itself when the model or the ledger expects it to go wrong (a refused launch, a
  // wrapping index, a fault a finding names where its condition holds), because what goes wrong in
  // one context can reach the others on that GPU; and its reference group, when its reference is
  // the same for every variant of its shape.
  const auto need_of = [&](std::size_t i) {
    const Case& c = cases[order[i]];
    try {
      const std::unique_ptr<BoundCase> bound = bind_case(env_.kernel(c.kernel), c.params, c.variant);
      const Prediction prediction = predict(bound->plan(env_.limits), env_.limits);
      const std::uint64_t group =
          bound->reference_same_for_every_variant() ? std::hash<std::string>{}(reference_group_key(c)) | 1 : 0;
      return CaseNeed{case_device_need(*bound), expected_to_go_wrong(c, prediction), group};
    } catch (const std::exception&) {
      return CaseNeed{0, true, 0};  // its host code fails: the worker records that, alone
    }
  };
  pool_.run(
      replays,
      [&](const WorkerPool::Result& r) {
        const Case& c = cases[order[r.index]];
        on_record(c, record_of(c, r.reply, r.device));
      },
      should_stop, need_of);
}

}  // namespace gridfuzz
