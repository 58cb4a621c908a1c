#include "gridfuzz/engine/case_record.hpp"

#include "gridfuzz_commit.hpp"  // generated at build time: GRIDFUZZ_COMMIT

namespace gridfuzz {
namespace {

PlanSummary summarize(const LaunchPlan& plan, const Prediction& prediction) {
  PlanSummary s;
  s.launches = plan.launches.size();
  if (const LaunchSpec* l = representative_launch(plan, prediction))
    s.launch = LaunchSummary{l->grid, l->block, l->dynamic_smem_bytes + l->func.static_smem_bytes, l->func.num_regs};
  if (const IndexVerdict* iv = prediction.riskiest_index()) {
    s.max_index = iv->max_value;
    for (const auto& range : plan.indices)
      if (range.name == iv->name) s.index_type = range.type;
    for (const auto& arg : plan.host_arguments)  // predicted as "arg:<name>" (predictor.cpp)
      if ("arg:" + arg.name == iv->name) s.index_type = arg.type;
  }
  s.index_wrap = index_wrap_of(prediction);
  s.predicted = predicted_outcome(prediction);
  return s;
}

}  // namespace

std::string build_commit() { return GRIDFUZZ_COMMIT; }

const LaunchSpec* representative_launch(const LaunchPlan& plan, const Prediction& prediction) {
  if (prediction.refused_launch && *prediction.refused_launch < plan.launches.size())
    return &plan.launches[*prediction.refused_launch];
  const LaunchSpec* best = nullptr;
  u128 most = 0;
  for (const auto& l : plan.launches) {
    const u128 blocks = u128{l.grid.x} * l.grid.y * l.grid.z;
    if (!best || blocks > most) {
      best = &l;
      most = blocks;
    }
  }
  return best;
}

CaseRecord make_record(const CaseResult& result, const RunContext& context) {
  return CaseRecord{result.the_case,    context,       summarize(result.plan, result.prediction),
                    result.observed,    result.oracle, result.verdict,
                    result.detail,      result.timing, result.phases,
                    result.context_lost, std::nullopt,  // tier: set by a sweep that takes it
                    result.finding,     result.started_unix_ms};
}

}  // namespace gridfuzz
