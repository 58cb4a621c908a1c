#include "gridfuzz/engine/runner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>

#include "gridfuzz/device/cuda_error.hpp"
#include "gridfuzz/device/driver_api.hpp"
#include "gridfuzz/device/event.hpp"
#include "gridfuzz/device/kernel_activity.hpp"
#include "gridfuzz/device/launch_recorder.hpp"
#include "gridfuzz/device/plan_vs_recorded.hpp"
#include "gridfuzz/device/stream.hpp"
#include "gridfuzz/engine/guarded_buffers.hpp"
#include "gridfuzz/engine/output_compare.hpp"
#include "gridfuzz/core/self_check.hpp"
#include "gridfuzz/core/verdict.hpp"

namespace gridfuzz {
namespace {

void sync_context() { device::check(device::driver().cuCtxSynchronize(), "cuCtxSynchronize"); }

// The output specs alone (inputs shrunk to nothing), for the reference copies.
std::vector<BufferSpec> outputs_only(std::vector<BufferSpec> specs) {
  for (auto& s : specs)
    if (s.role == BufferRole::input) s.elements = 0;
  return specs;
}

Observed first_refusal(const device::Launcher& launcher) {
  for (const auto& r : launcher.records())
    if (!r.ok()) return {Observed::Kind::refuse, r.error};
  return {Observed::Kind::accept, ""};
}

// Runs `what`; a CUDA error on the way is a fault that poisons the context.
template <class F>
std::optional<std::string> guarded(F&& what) {
  try {
    what();
  } catch (const device::LaunchError&) {
    throw;  // a refused launch is an observation, handled by the caller
  } catch (const device::CudaError& e) {
    return device::error_name(e.code());
  }
  return std::nullopt;
}

// The production call of a bound case. When the kernel's own host code launches, every launch
// it makes is recorded into `launcher` (CUPTI): the same records a harness launch leaves.
void production_call(const Kernel& kernel, const BoundCase& bound, const DeviceLimits& limits, const BufferSet& bufs,
                     device::Launcher& launcher, CUstream stream) {
  if (kernel.launch_owner() == LaunchOwner::own_host_code)
    device::watch_launches(launcher, [&] { bound.launch(limits, bufs, launcher, stream); });
  else
    bound.launch(limits, bufs, launcher, stream);
}

std::int64_t unix_ms_now() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

CaseResult predict_bound(const BoundCase& bound, const Case& c, const DeviceLimits& limits) {
  CaseResult r;
  r.started_unix_ms = unix_ms_now();  // a case run here starts with its plan
  r.the_case = c;
  r.plan = bound.plan(limits);
  r.prediction = predict(r.plan, limits);
  r.detail = r.prediction.detail;
  return r;
}

// The one verdict path: every result, run here or judged from outside, ends here. A plan
// difference (the launches made are not the plan's) is a model-mismatch whatever else happened.
// A failure a finding of the ledger expects (its kind, where its condition holds) is
// expected-fail, and the result names the finding.
void conclude(CaseResult& r, const Observation& obs, const Ledger& ledger,
              const std::optional<std::string>& plan_difference) {
  r.observed = obs.observed;
  const bool predicted_failure = ledger.expects_failure(r.the_case.kernel, r.the_case.variant, r.prediction);
  r.verdict = plan_difference ? Verdict::of(Verdict::Kind::model_mismatch)
                              : decide_verdict(r.prediction, obs, predicted_failure);
  if (r.verdict.kind == Verdict::Kind::fail && r.verdict.failure_kind) {
    const Case& c = r.the_case;
    const std::vector<std::pair<std::string, std::string>> axes(c.params.values().begin(), c.params.values().end());
    const ConditionLookup lookup = case_condition_lookup(axes, predicted_outcome(r.prediction).to_string(),
                                                         r.observed.to_string(), index_wrap_of(r.prediction).to_string());
    if (const LedgerEntry* e = ledger.known_failure(c.kernel, c.variant, *r.verdict.failure_kind, lookup)) {
      r.verdict = Verdict::of(Verdict::Kind::expected_fail);
      r.finding = e->finding;
    }
  }
  if (plan_difference) r.detail = *plan_difference + (r.detail.empty() ? "" : " | " + r.detail);
}

// What the oracle found, the failure kind its first failing check decides, and a line saying why.
// Adds the time from its construction (or the last lap) to a phase.
class PhaseClock {
 public:
  double lap() {
    const auto now = std::chrono::steady_clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - last_).count();
    last_ = now;
    return ms;
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

struct OracleOutcome {
  OracleResult result;
  std::optional<FailureKind> failure_kind;
  std::string detail;
  std::unique_ptr<GuardedBuffers> reference;  // the split reference's outputs, when it ran
};

// The production outputs against a reference's, under the case's compare policy.
struct ReferenceComparison {
  std::uint64_t mismatches = 0;
  double max_abs_err = 0;
  std::string detail;  // the first output that differs, and where
};

ReferenceComparison compare_with_reference(const BoundCase& bound, const GuardedBuffers& bufs,
                                           const GuardedBuffers& ref, CUstream stream) {
  device::Launcher harness;
  const auto& specs = bufs.specs();
  const ComparePolicy policy = bound.compare_policy();
  ReferenceComparison out;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    if (specs[i].role != BufferRole::output) continue;
    const CompareStats s = compare_outputs(specs[i].type, bufs.ptr(i), ref.ptr(i), specs[i].elements, policy, harness, stream);
    out.mismatches += s.mismatches;
    out.max_abs_err = std::max(out.max_abs_err, s.max_abs_err);
    if (s.mismatches && out.detail.empty())
      out.detail = specs[i].name + ": " + std::to_string(s.mismatches) + " elements differ from the split reference, first at " +
                   std::to_string(s.first_mismatch);
  }
  return out;
}

// A fresh split reference of the case's outputs (poisoned, then written by the reference's launches),
// or why there is none: it faulted (the context is lost) or a launch of it was refused.
struct SplitReference {
  std::unique_ptr<GuardedBuffers> outputs;
  bool failed = false, context_lost = false;
  OracleResult failure;
  std::string detail;
};

SplitReference make_split_reference(const BoundCase& bound, const DeviceLimits& limits, const GuardedBuffers& bufs,
                                    CUstream stream, PhaseTimes& phases, PhaseClock& clock) {
  SplitReference out;
  out.outputs = std::make_unique<GuardedBuffers>(outputs_only(bufs.specs()));
  GuardedBuffers& ref = *out.outputs;
  ref.poison_outputs();
  sync_context();
  phases.alloc_ms += clock.lap();
  SwappedOutputs ref_view(bufs, ref);
  device::Launcher ref_launcher;
  if (auto fault = guarded([&] {
        bound.launch_split_reference(limits, ref_view, ref_launcher, stream);
        sync_context();
      })) {
    out.failed = out.context_lost = true;
    out.failure = {.kind = OracleResult::Kind::reference_fault, .where = *fault};
    out.detail = "the split reference itself faulted: " + *fault;
    return out;
  }
  if (const Observed ref_outcome = first_refusal(ref_launcher); ref_outcome.kind != Observed::Kind::accept) {
    out.failed = true;
    out.failure.kind = OracleResult::Kind::reference_refused;
    out.detail = "a split-reference launch was refused: " + ref_outcome.to_string();
    return out;
  }
  phases.reference_ms += clock.lap();
  return out;
}

// `kept`: the reference kept from the previous case of this shape, or null. It is used when the
// outputs match it (a fresh reference of the same shape would be the same bits, or within the
// policy's tolerance); otherwise it is freed and a fresh one decides.
OracleOutcome run_oracle(const BoundCase& bound, const Case& c, const DeviceLimits& limits, const RunOptions& options,
                         const GuardedBuffers& bufs, CUstream stream, CaseResult& result,
                         std::unique_ptr<GuardedBuffers> kept) {
  OracleOutcome o;
  device::Launcher harness;  // our own kernels, kept out of the production record
  const auto& specs = bufs.specs();
  PhaseTimes& phases = result.phases;
  PhaseClock clock;

  // 1. guard zones
  if (const auto bad = bufs.guard_violations(); !bad.empty()) {
    phases.compare_ms += clock.lap();
    o.failure_kind = FailureKind::out_of_bounds_write;
    o.result = {.kind = OracleResult::Kind::guard, .where = bad.front()};
    o.detail = "guard zone changed around " + bad.front();
    return o;
  }
  // 2. unwritten outputs
  std::uint64_t unwritten = 0;
  for (std::size_t i = 0; i < specs.size(); ++i)
    if (specs[i].role == BufferRole::output)
      unwritten += count_poison(specs[i].type, bufs.ptr(i), specs[i].elements, harness, stream);
  phases.compare_ms += clock.lap();
  // 3. split-batch reference, when the adapter has one (split() gives pieces; none by default)
  const bool has_split = !bound.split(limits).empty();
  std::optional<ReferenceComparison> compared;
  if (has_split && kept) {
    compared = compare_with_reference(bound, bufs, *kept, stream);
    if (compared->mismatches == 0) {
      o.reference = std::move(kept);
    } else {
      compared.reset();
      kept.reset();  // freed before the fresh one is allocated
    }
    phases.compare_ms += clock.lap();
  }
  if (has_split && !o.reference) {
    SplitReference fresh = make_split_reference(bound, limits, bufs, stream, phases, clock);
    if (fresh.failed) {
      result.context_lost = result.context_lost || fresh.context_lost;
      o.failure_kind = FailureKind::reference;
      o.result = fresh.failure;
      o.detail = fresh.detail;
      return o;
    }
    o.reference = std::move(fresh.outputs);
    compared = compare_with_reference(bound, bufs, *o.reference, stream);
    phases.compare_ms += clock.lap();
  }
  if (compared) {
    o.result.split_mismatches = compared->mismatches;
    o.result.max_abs_err = compared->max_abs_err;
    o.detail = compared->detail;
  }
  // 4. CPU reference on samples
  std::size_t ref_bad = 0, ref_total = 0;
  std::string ref_detail;
  if (options.reference_samples > 0) {
    for (const ReferenceSample& s : bound.cpu_reference(bufs, c.seed, options.reference_samples)) {
      const ElementType t = specs.at(s.buffer).type;
      std::uint32_t bits = 0;
      bufs.read(s.buffer, s.element * element_bytes(t), &bits, element_bytes(t));
      const double got = element_to_double(t, bits);
      ++ref_total;
      if (!(std::fabs(got - s.expected) <= s.abs_tol + s.rel_tol * std::fabs(s.expected))) {
        if (ref_bad++ == 0)
          ref_detail = specs[s.buffer].name + "[" + std::to_string(s.element) + "] = " + std::to_string(got) +
                       ", CPU reference " + std::to_string(s.expected);
      }
    }
  }
  phases.cpu_ms += clock.lap();
  // The first failing check decides the kind; the result holds all.
  o.result.kind = OracleResult::Kind::compared;
  o.result.exact = bound.compare_policy().exact;
  o.result.split_reference = has_split;
  o.result.unwritten = unwritten;
  o.result.cpu_ok = ref_total - ref_bad;
  o.result.cpu_total = ref_total;
  if (unwritten) {
    o.failure_kind = FailureKind::unwritten;
    o.detail = std::to_string(unwritten) + " output elements never written";
  } else if (o.result.split_mismatches) {
    o.failure_kind = FailureKind::mismatch;
  } else if (ref_bad) {
    o.failure_kind = FailureKind::reference;
    o.detail = std::to_string(ref_bad) + " of " + std::to_string(ref_total) + " CPU reference samples off; first " + ref_detail;
  }
  return o;
}

// The self-check (gridfuzz/core/self_check.hpp): the production call made again on the same inputs
// (re-filled from the seed: a call that wrote to an input must not change the second one) into
// outputs of their own, poisoned again, and compared with the first call's outputs under the
// kernel's compare policy (a kernel with a stated tolerance may differ within it). The first
// call's outputs are left as they were. Returns the elements that differ.
std::uint64_t repeat_and_compare(const Kernel& kernel, const BoundCase& bound, const Case& c, const DeviceLimits& limits,
                                 const GuardedBuffers& bufs, CUstream stream) {
  const auto& specs = bufs.specs();
  GuardedBuffers again(outputs_only(specs));
  const SwappedOutputs view(bufs, again);
  bound.fill_inputs(c.seed, view, stream);
  sync_context();
  again.poison_outputs();
  sync_context();
  device::Launcher launcher;  // the same launches as the first call's; what they record is not judged again
  production_call(kernel, bound, limits, view, launcher, stream);
  sync_context();
  device::Launcher harness;
  const ComparePolicy policy = bound.compare_policy();
  std::uint64_t differ = 0;
  for (std::size_t i = 0; i < specs.size(); ++i)
    if (specs[i].role == BufferRole::output)
      differ += compare_outputs(specs[i].type, bufs.ptr(i), again.ptr(i), specs[i].elements, policy, harness, stream)
                    .mismatches;
  return differ;
}

struct Spread {
  double median = 0, min = 0, max = 0;
};

Spread spread_of(std::vector<double> v) {
  Spread s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.min = v.front();
  s.max = v.back();
  s.median = v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
  return s;
}

void warn_once_without_kernel_time(const std::string& why) {
  static bool warned = false;
  if (!std::exchange(warned, true)) std::cerr << "gridfuzz: kernel time not measured: " << why << "\n";
}

// Kernel time, in calls of their own after the call-time samples: CUPTI's tracing adds work to
// every launch, so the two are never measured in the same call. `prepare` (the L2 flush) runs
// before the recording starts; `call` makes the call and synchronizes.
void time_kernels(Timing& t, int samples, const std::function<void()>& prepare, const std::function<void()>& call) {
  std::vector<double> kernel_ms;
  try {
    for (int i = 0; i < samples; ++i) {
      prepare();
      device::KernelActivity activity;
      call();
      const std::vector<device::KernelInterval> kernels = activity.take();
      t.kernels_per_call = static_cast<int>(kernels.size());
      kernel_ms.push_back(device::busy_ms(kernels));
    }
  } catch (const device::KernelActivityUnavailable& e) {
    warn_once_without_kernel_time(e.what());
    return;
  }
  const Spread k = spread_of(kernel_ms);
  t.kernel_samples = static_cast<int>(kernel_ms.size());
  t.kernel_median_ms = k.median;
  t.kernel_min_ms = k.min;
  t.kernel_max_ms = k.max;
}

Timing time_case(const Kernel& kernel, const BoundCase& bound, const DeviceLimits& limits, const RunOptions& options,
                 const GuardedBuffers& bufs, CUstream stream) {
  // Flushing L2 between samples: write a buffer twice its size.
  device::DeviceBuffer flush(std::max<std::uint64_t>(limits.l2_bytes * 2, 1 << 20));
  device::Event start, stop;
  device::Launcher scratch;
  // Load CUPTI's activity API before any call is timed, so every call time of every case is taken
  // in the same state (CUPTI attached, no activity enabled) whether or not an earlier case of this
  // process measured kernel time.
  const auto kernel_time_unavailable = device::KernelActivity::unavailable_reason();
  // A call of seconds (a size-crossing shape) is timed with fewer samples: warm-up ends after a
  // launch of more than a tenth of kTimingBudgetMs, sampling once kTimingBudgetMs have been timed
  // (at least one sample; the row's `samples` says how many).
  constexpr double kTimingBudgetMs = 1000;
  for (int i = 0; i < options.warmup; ++i) {
    start.record(stream);
    production_call(kernel, bound, limits, bufs, scratch, stream);
    stop.record(stream);
    stop.synchronize();
    if (stop.elapsed_ms_since(start) > kTimingBudgetMs / 10) break;
  }
  sync_context();
  std::vector<float> ms;
  double timed_ms = 0;
  for (int i = 0; i < options.samples && (ms.empty() || timed_ms < kTimingBudgetMs); ++i) {
    flush.fill_words(static_cast<std::uint32_t>(i));
    sync_context();
    scratch.clear();
    start.record(stream);
    production_call(kernel, bound, limits, bufs, scratch, stream);
    stop.record(stream);
    stop.synchronize();
    ms.push_back(stop.elapsed_ms_since(start));
    timed_ms += ms.back();
  }
  Timing t;
  const Spread call = spread_of({ms.begin(), ms.end()});
  t.samples = static_cast<int>(ms.size());
  t.samples_ms = ms;
  t.median_ms = call.median;
  t.min_ms = call.min;
  t.max_ms = call.max;
  if (t.median_ms > 0) t.gbps = static_cast<double>(bound.bytes_moved()) / (t.median_ms * 1e6);
  if (kernel_time_unavailable) {
    warn_once_without_kernel_time(*kernel_time_unavailable);
    return t;
  }
  time_kernels(t, static_cast<int>(ms.size()), [&] {
    flush.fill_words(0);
    sync_context();
    scratch.clear();
  }, [&] {
    production_call(kernel, bound, limits, bufs, scratch, stream);
    sync_context();
  });
  return t;
}

}  // namespace

std::uint64_t default_memory_budget(const DeviceLimits& limits) {
  constexpr std::uint64_t kWorkersReserve = std::uint64_t{2} << 30;
  const std::uint64_t usable = limits.total_mem_bytes > kWorkersReserve ? limits.total_mem_bytes - kWorkersReserve : 0;
  return usable / 10 * 9;
}

std::uint64_t case_device_need(const BoundCase& bound) {
  // The comparison's and the fill's scratch: small next to any buffer worth admitting.
  constexpr std::uint64_t kHarnessScratch = std::uint64_t{64} << 20;
  const auto specs = bound.buffers();
  return saturating_add(saturating_add(GuardedBuffers::footprint(specs), GuardedBuffers::footprint(outputs_only(specs))),
                        kHarnessScratch);
}

std::unique_ptr<BoundCase> bind_case(const Kernel& kernel, const Params& p, const std::string& variant) {
  std::unique_ptr<BoundCase> bound;
  try {
    bound = kernel.bind(p, variant);
  } catch (const std::exception&) {
    throw;
  } catch (...) {
    throw std::invalid_argument(kernel.name() + ": bind() threw something that is not a std::exception");
  }
  if (!bound) throw std::invalid_argument(kernel.name() + ": bind() returned no case (null) for " + p.to_string());
  return bound;
}

CaseResult predict_case(const Kernel& kernel, const Case& c, const DeviceLimits& limits) {
  CaseResult r = predict_bound(*bind_case(kernel, c.params, c.variant), c, limits);
  // Nothing ran: judged by the one verdict path all the same (an observation `static` is the
  // verdict `static`, whatever the ledger says).
  conclude(r, Observation{Observed{Observed::Kind::static_only, ""}, std::nullopt}, Ledger(), std::nullopt);
  return r;
}

CaseResult run_case(const Kernel& kernel, const Case& c, const DeviceLimits& limits, const RunOptions& options,
                    const Ledger& ledger, ReferenceReuse* reuse) {
  PhaseClock clock, whole;
  if (auto err = kernel.check(c.params)) throw std::invalid_argument(kernel.name() + ": " + *err);
  const std::unique_ptr<BoundCase> bound = bind_case(kernel, c.params, c.variant);
  CaseResult r = predict_bound(*bound, c, limits);
  r.phases.plan_ms = clock.lap();
  Observation obs;
  // Set when the launches the call made (by the harness's launcher or recorded from the kernel's
  // own host code) differ from the plan: a model-mismatch, whatever else happened.
  std::optional<std::string> plan_difference;
  auto finish = [&]() -> CaseResult& {
    conclude(r, obs, ledger, plan_difference);
    r.phases.case_ms = whole.lap();
    return r;
  };

  const auto specs = bound->buffers();
  // The reference this case may share with the other variants of its shape ("" when it may not);
  // one kept for another shape is freed before this case allocates anything.
  const std::string reference_key =
      reuse && bound->reference_same_for_every_variant() ? shared_reference_key(c, specs) : std::string();
  if (reuse) reuse->kept.keep_only(reference_key);
  const std::uint64_t need = case_device_need(*bound);
  const std::uint64_t budget = options.memory_budget_bytes ? options.memory_budget_bytes : default_memory_budget(limits);
  if (need > budget) {
    obs.observed = {Observed::Kind::skipped, "over-budget"};
    r.detail = (need == UINT64_MAX ? std::string("needs more than 2^64 bytes of device memory")
                                   : "needs " + std::to_string(need) + " bytes of device memory") +
               ", budget " + std::to_string(budget);
    return finish();
  }
  if (r.plan.host_error) {
    // The production host code fails before any launch (we model it instead of executing UB).
    obs.observed = {Observed::Kind::host_error, *r.plan.host_error};
    return finish();
  }

  std::optional<GuardedBuffers> bufs;
  try {
    bufs.emplace(specs);
  } catch (const device::CudaError& e) {
    if (e.code() != CUDA_ERROR_OUT_OF_MEMORY) throw;
    obs.observed = {Observed::Kind::oom, ""};
    r.detail = e.what();
    return finish();
  }
  r.phases.alloc_ms += clock.lap();
  device::Stream stream;
  bound->fill_inputs(c.seed, *bufs, stream.get());
  stream.synchronize();
  bufs->poison_outputs();
  sync_context();
  r.phases.fill_ms = clock.lap();

  device::Launcher launcher;
  std::optional<std::string> fault;
  bool call_completed = true;  // false when a checked launch refused and the call stopped there
  try {
    fault = guarded([&] {
      production_call(kernel, *bound, limits, *bufs, launcher, stream.get());
      sync_context();
    });
  } catch (const device::LaunchError& e) {
    r.detail = e.what();  // a fixed launcher refused to go on: the record below says which launch
    call_completed = false;
    fault = guarded([&] { sync_context(); });
  }
  r.phases.call_ms = clock.lap();
  // The plan (pure C++) rarely knows a function's registers; the launches made do (the launcher
  // and the CUPTI recorder read cuFuncGetAttribute): the row's `regs` is theirs.
  const std::vector<int> regs = device::recorded_registers(r.plan, launcher.records());
  for (std::size_t i = 0; i < regs.size(); ++i)
    if (r.plan.launches[i].func.num_regs <= 0) r.plan.launches[i].func.num_regs = regs[i];
  if (fault) {
    obs.observed = {Observed::Kind::fault, *fault};
    r.context_lost = true;
    r.detail = "sticky device error " + *fault + " after " + std::to_string(launcher.records().size()) + " launch(es)";
    return finish();
  }
  obs.observed = first_refusal(launcher);
  for (const auto& rec : launcher.records())
    if (!rec.ok()) {
      r.detail = rec.describe();
      break;
    }
  // Every launch a completed call made must be one the plan names, in order (a call a checked
  // launch stopped halfway has made fewer: its refusal is the observation).
  if (call_completed) plan_difference = device::plan_recorded_difference(r.plan, launcher.records());
  if (obs.observed.kind == Observed::Kind::accept) {
    bool repeating = false;  // inside the self-check's second call
    try {
      OracleOutcome o = run_oracle(*bound, c, limits, options, *bufs, stream.get(), r,
                                   reuse ? reuse->kept.take(reference_key) : nullptr);
      r.oracle = o.result;
      obs.failure_kind = o.failure_kind;
      if (!o.detail.empty()) r.detail = o.detail;
      clock.lap();  // the oracle counted its own phases
      const bool self_check = o.result.kind == OracleResult::Kind::compared &&
                              wants_self_check(o.failure_kind, selected_for_self_check(c, options.self_check_share));
      // Kept only from a case whose outputs matched it, and never beside the self-check's or the
      // timing's own buffers (the case's memory need counts one reference, no more).
      if (!reference_key.empty() && reuse->keep_after && o.reference && !o.failure_kind && !self_check &&
          !options.timing)
        reuse->kept.keep(reference_key, std::move(o.reference));
      o.reference.reset();
      if (self_check) {
        repeating = true;
        const std::uint64_t differ = repeat_and_compare(kernel, *bound, c, limits, *bufs, stream.get());
        repeating = false;
        r.phases.call_ms += clock.lap();
        r.oracle.self_differ = differ;
        if (r.oracle.split_reference && wants_reference_again(o.failure_kind, differ)) {
          // The first reference is freed by now; the second is compared with the same outputs (the
          // case's memory need counts one reference).
          SplitReference again = make_split_reference(*bound, limits, *bufs, stream.get(), r.phases, clock);
          if (again.failed) {
            r.context_lost = r.context_lost || again.context_lost;
            r.detail += "; the split reference made again failed: " + again.detail;
          } else {
            r.oracle.reference_again = compare_with_reference(*bound, *bufs, *again.outputs, stream.get()).mismatches;
            r.phases.compare_ms += clock.lap();
          }
        }
        obs.failure_kind = after_self_check(o.failure_kind, differ, r.oracle.reference_again, r.oracle.split_mismatches);
        if (differ)
          r.detail = "two identical production calls differ in " + std::to_string(differ) +
                     " output elements (a race?)" + (r.detail.empty() ? "" : "; first call: " + r.detail);
        else if (r.oracle.reference_again && *r.oracle.reference_again != r.oracle.split_mismatches)
          r.detail = "the split reference made again differs from the outputs in " +
                     std::to_string(*r.oracle.reference_again) + " elements, the first in " +
                     std::to_string(r.oracle.split_mismatches) + ": the kernel's own reference calls differ (a race?)";
      }
    } catch (const device::CudaError& e) {
      r.context_lost = true;
      r.oracle = OracleResult{};
      r.oracle.kind = OracleResult::Kind::device_fault;
      obs.failure_kind = FailureKind::fault;
      r.detail = std::string(repeating ? "the production call made again for the self-check hit a device error: "
                                       : "the oracle hit a device error: ") +
                 e.what();
    }
    clock.lap();
    if (options.timing && !obs.failure_kind && !r.context_lost) {
      r.timing = time_case(kernel, *bound, limits, options, *bufs, stream.get());
      r.phases.timing_ms = clock.lap();
    }
  }
  return finish();
}

CaseResult judge_without_result(const Kernel& kernel, const Case& c, const DeviceLimits& limits, const Ledger& ledger,
                                const Observed& observed) {
  CaseResult r = predict_bound(*bind_case(kernel, c.params, c.variant), c, limits);
  conclude(r, Observation{observed, std::nullopt}, ledger, std::nullopt);
  return r;
}

}  // namespace gridfuzz
