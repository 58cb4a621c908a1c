#include "gridfuzz/search/cheaper_crossing.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include "gridfuzz/engine/runner.hpp"
#include "gridfuzz/search/size_crossings.hpp"
#include "gridfuzz/search/sweep_plan.hpp"

namespace gridfuzz {
namespace {

// What a planned point of the crossing tests: whether it is a case at all, what the model predicts
// there (outcome, index wrap, the launches it plans), and for a size crossing which side of the
// width the size is on.
struct PointSignature {
  bool valid = false;
  std::string outcome, wrap;
  std::vector<std::string> launches;
  bool size_over = false;
  bool operator==(const PointSignature&) const = default;
};

PointSignature signature_at(const Kernel& k, const std::string& variant, const Params& p, const ModelBoundary& crossing,
                            const DeviceLimits& limits) {
  PointSignature s;
  if (k.check(p)) return s;
  s.valid = true;
  const std::unique_ptr<BoundCase> bound = bind_case(k, p, variant);
  const LaunchPlan plan = bound->plan(limits);
  const Prediction prediction = predict(plan, limits);
  s.outcome = prediction.outcome;
  s.wrap = prediction.index_wrap();
  for (const LaunchSpec& l : plan.launches) s.launches.push_back(l.name);
  if (crossing.threshold > 0)
    s.size_over = call_size_named(k, variant, p, limits, crossing.signal) >= crossing.threshold;
  return s;
}

}  // namespace

Params cheaper_crossing_start(const Kernel& k, const std::string& variant, const Params& start,
                              const ModelBoundary& crossing, const DeviceLimits& limits,
                              const std::set<std::string>& fixed_axes, std::uint64_t above_bytes) {
  const auto axes = k.axes();
  const auto crossing_axis = std::find_if(axes.begin(), axes.end(), [&](const AxisSpec& a) { return a.name == crossing.axis; });
  if (crossing_axis == axes.end()) return start;
  std::vector<std::int64_t> values;
  for (std::int64_t d = -crossing.before; d <= crossing.after; ++d) {
    const std::int64_t v = crossing.first_bad + d * crossing_axis->step;
    if (v >= crossing_axis->min && v <= crossing_axis->max) values.push_back(v);
  }
  auto at = [&](Params p, std::int64_t v) {
    p.set(crossing.axis, std::to_string(v));
    return p;
  };
  // The bytes of the case at the crossing itself; a shape the kernel refuses there costs nothing.
  auto cost = [&](const Params& p) -> std::optional<std::uint64_t> {
    const Params q = at(p, crossing.first_bad);
    if (k.check(q)) return std::nullopt;
    return case_device_bytes(k, q);
  };
  auto signatures = [&](const Params& p) {
    std::vector<PointSignature> out;
    for (const std::int64_t v : values) out.push_back(signature_at(k, variant, at(p, v), crossing, limits));
    return out;
  };
  const auto start_cost = cost(start);
  if (!start_cost || *start_cost <= above_bytes) return start;
  const std::vector<PointSignature> wanted = signatures(start);
  // What a wrapping index does depends on the data it reaches, which the model does not know: at a
  // lowered axis the same predicted wrap left vllm.quantize_q8_1's output right at one column
  // (evidence/2026-12-02-h200-cheaper, run3). A crossing with a wrap among its points stays as found.
  if (std::any_of(wanted.begin(), wanted.end(), [](const PointSignature& s) { return s.valid && s.wrap != "safe"; }))
    return start;

  Params best = start;
  std::uint64_t best_cost = *start_cost;
  for (const AxisSpec& axis : axes) {
    if (axis.is_choice() || axis.name == crossing.axis || fixed_axes.contains(axis.name)) continue;
    std::int64_t now = 0;
    try {
      now = static_cast<std::int64_t>(best.get_u64(axis.name));
    } catch (const std::exception&) {
      continue;  // a value that is not a plain integer stays as it is
    }
    std::vector<std::int64_t> tries{axis.min};
    for (int shift = 12; shift >= 1; --shift)
      if (const std::int64_t v = now >> shift; v > tries.back()) tries.push_back(v);
    for (const std::int64_t value : tries) {
      if (value >= now) break;
      const auto candidate = valid_params_at(k, best, axis, value);
      if (!candidate || candidate->get_u64(axis.name) >= static_cast<std::uint64_t>(now)) continue;
      const auto c = cost(*candidate);
      if (!c || *c >= best_cost || signatures(*candidate) != wanted) continue;
      best = *candidate;
      best_cost = *c;
      break;  // the smallest value tried that keeps the crossing
    }
  }
  return best;
}

}  // namespace gridfuzz
