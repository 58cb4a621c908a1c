#include "gridfuzz/reporters/record_row.hpp"

#include "gridfuzz/reports/schema.hpp"
#include "gridfuzz/reports/utc_time.hpp"

namespace gridfuzz::reporters {

reports::CsvRow to_row(const CaseRecord& r) {
  reports::CsvRow row;
  row.set("schema", std::string(reports::kSchemaVersion));
  row.set("run_id", r.context.run_id);
  row.set("case_id", r.the_case.id());
  row.set("device", r.context.device);
  row.set("cc", r.context.cc);
  row.set("driver", r.context.driver);
  row.set("commit", r.context.commit);
  if (r.context.device_index) row.set_int("device_index", *r.context.device_index);
  row.set("kernel", r.the_case.kernel);
  row.set("variant", r.the_case.variant);
  // Axis values that have their own column; every axis is in `replay`.
  for (const std::string_view column : reports::kAxisColumns)
    if (const std::string axis(column); r.the_case.params.has(axis)) row.set(column, r.the_case.params.get(axis));
  row.set_uint("launches", r.plan.launches);
  if (const auto& l = r.plan.launch) {
    row.set_uint("grid_x", l->grid.x);
    row.set_uint("grid_y", l->grid.y);
    row.set_uint("grid_z", l->grid.z);
    row.set_uint("block_x", l->block.x);
    row.set_uint("block_y", l->block.y);
    row.set_uint("block_z", l->block.z);
    row.set_uint("smem", l->smem_bytes);
    if (l->regs > 0) row.set_int("regs", l->regs);
  }
  if (r.plan.max_index) row.set_u128("max_index", *r.plan.max_index);
  if (r.plan.index_type) row.set("index_type", to_string(*r.plan.index_type));
  row.set("index_wrap", r.plan.index_wrap.to_string());
  row.set("predicted", r.plan.predicted.to_string());
  row.set("observed", r.observed.to_string());
  row.set("oracle", r.oracle.to_string());
  // Empty where SCHEMA.md says so: no oracle ran, nothing was timed, nothing ran (static).
  if (r.oracle.has_comparison()) {
    row.set_double("max_abs_err", r.oracle.max_abs_err);
    row.set_uint("mismatches", r.oracle.split_mismatches);
  }
  if (r.oracle.kind == OracleResult::Kind::compared) {  // every check ran: the counts of `oracle`
    row.set_uint("unwritten", r.oracle.unwritten);
    row.set_uint("cpu_ok", r.oracle.cpu_ok);
    row.set_uint("cpu_total", r.oracle.cpu_total);
  }
  row.set("verdict", r.verdict.to_string());
  if (r.timing.samples > 0) {
    // CUDA events measure in float32: printed at that precision (a median of two samples is
    // rounded to the nearest float, within the events' own resolution).
    row.set_float("time_ms_median", static_cast<float>(r.timing.median_ms));
    row.set_float("time_ms_min", static_cast<float>(r.timing.min_ms));
    row.set_float("time_ms_max", static_cast<float>(r.timing.max_ms));
    row.set_double("gbps", r.timing.gbps);
    row.set_int("samples", r.timing.samples);
    // The samples themselves, in the order taken: what `diff` tests the noise with.
    std::string samples;
    for (const float ms : r.timing.samples_ms) {
      if (!samples.empty()) samples += ' ';
      samples += reports::format_float(ms);
    }
    row.set("time_samples_ms", std::move(samples));
  }
  if (r.observed.kind != Observed::Kind::static_only) row.set_uint("seed", r.the_case.seed);
  row.set("replay", r.the_case.replay());
  if (r.timing.kernel_samples > 0) {
    row.set_double("kernel_ms_median", r.timing.kernel_median_ms);
    row.set_double("kernel_ms_min", r.timing.kernel_min_ms);
    row.set_double("kernel_ms_max", r.timing.kernel_max_ms);
    row.set_int("kernels_per_call", r.timing.kernels_per_call);
  }
  // Where the case's time went: rows of a case that ran (static rows and records judged from
  // outside, whose phases are all 0, leave them empty).
  if (const PhaseTimes& ph = r.phases; ph.case_ms > 0) {
    for (const auto& [column, v] : {std::pair{"plan_ms", ph.plan_ms}, {"alloc_ms", ph.alloc_ms}, {"fill_ms", ph.fill_ms},
                                    {"call_ms", ph.call_ms}, {"reference_ms", ph.reference_ms},
                                    {"compare_ms", ph.compare_ms}, {"cpu_ms", ph.cpu_ms}, {"timing_ms", ph.timing_ms},
                                    {"case_ms", ph.case_ms}, {"worker_ms", ph.worker_ms}})
      row.set_double(column, v);
  }
  if (r.tier) row.set("tier", std::string(to_string(*r.tier)));  // empty: no sweep made the case
  row.set("driver_release", r.context.driver_release);
  if (r.started_unix_ms > 0) row.set("started", reports::utc_time_text(r.started_unix_ms));
  row.set("finding", r.finding);
  return row;
}

}  // namespace gridfuzz::reporters
