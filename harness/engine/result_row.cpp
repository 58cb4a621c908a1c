#include "gridfuzz/result_row.hpp"

#include "gridfuzz/reports/schema.hpp"

#include "gridfuzz_commit.hpp"  // generated at build time: GRIDFUZZ_COMMIT

namespace gridfuzz {
namespace {

// Axis values that have their own CSV column.
constexpr const char* kAxisColumns[] = {"quant", "bits", "group_size", "dtype", "tokens",
                                        "top_k", "experts", "rows", "cols", "vocab"};

// The index closest to (or furthest past) its type's limit.
const IndexVerdict* riskiest_index(const Prediction& p) {
  const IndexVerdict* best = nullptr;
  double best_ratio = -1;
  for (const auto& iv : p.indices) {
    const double ratio = static_cast<double>(iv.max_value) / static_cast<double>(iv.limit);
    if (ratio > best_ratio) {
      best_ratio = ratio;
      best = &iv;
    }
  }
  return best;
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

reports::CsvRow to_row(const CaseResult& r, const RunContext& ctx) {
  reports::CsvRow row;
  row.set("schema", std::string(reports::kSchemaVersion));
  row.set("run_id", ctx.run_id);
  row.set("case_id", r.the_case.id());
  row.set("device", ctx.device);
  row.set("cc", ctx.cc);
  row.set("driver", ctx.driver);
  row.set("commit", ctx.commit);
  if (ctx.device_index) row.set_int("device_index", *ctx.device_index);
  row.set("kernel", r.the_case.kernel);
  row.set("variant", r.the_case.variant);
  for (const char* axis : kAxisColumns)
    if (r.the_case.params.has(axis)) row.set(axis, r.the_case.params.get(axis));
  row.set_uint("launches", r.plan.launches.size());
  if (const LaunchSpec* l = representative_launch(r.plan, r.prediction)) {
    row.set_uint("grid_x", l->grid.x);
    row.set_uint("grid_y", l->grid.y);
    row.set_uint("grid_z", l->grid.z);
    row.set_uint("block_x", l->block.x);
    row.set_uint("block_y", l->block.y);
    row.set_uint("block_z", l->block.z);
    row.set_uint("smem", l->dynamic_smem_bytes + l->func.static_smem_bytes);
    if (l->func.num_regs > 0) row.set_int("regs", l->func.num_regs);
  }
  if (const IndexVerdict* iv = riskiest_index(r.prediction)) {
    row.set_u128("max_index", iv->max_value);
    for (const auto& range : r.plan.indices)
      if (range.name == iv->name) row.set("index_type", to_string(range.type));
    for (const auto& arg : r.plan.host_arguments)  // predicted as "arg:<name>" (predictor.cpp)
      if ("arg:" + arg.name == iv->name) row.set("index_type", to_string(arg.type));
  }
  row.set("index_wrap", r.prediction.index_wrap());
  row.set("predicted", r.prediction.outcome);
  row.set("observed", r.observed);
  row.set("oracle", r.oracle);
  // Empty where SCHEMA.md says so: no oracle ran, nothing was timed, nothing ran (static).
  if (r.oracle != "-" && r.oracle != "oracle-fault") {
    row.set_double("max_abs_err", r.max_abs_err);
    row.set_uint("mismatches", r.mismatches);
  }
  row.set("verdict", r.verdict);
  if (r.timing.samples > 0) {
    row.set_double("time_ms_median", r.timing.median_ms);
    row.set_double("time_ms_min", r.timing.min_ms);
    row.set_double("time_ms_max", r.timing.max_ms);
    row.set_double("gbps", r.timing.gbps);
  }
  if (r.timing.samples > 0) row.set_int("samples", r.timing.samples);
  if (r.observed != "static") row.set_uint("seed", r.the_case.seed);
  row.set("replay", r.the_case.replay());
  if (r.timing.kernel_samples > 0) {
    row.set_double("kernel_ms_median", r.timing.kernel_median_ms);
    row.set_double("kernel_ms_min", r.timing.kernel_min_ms);
    row.set_double("kernel_ms_max", r.timing.kernel_max_ms);
    row.set_int("kernels_per_call", r.timing.kernels_per_call);
  }
  return row;
}

}  // namespace gridfuzz
