#include "gridfuzz/search/strategies.hpp"

#include <cmath>
#include <map>

#include "gridfuzz/core/vocabulary.hpp"
#include "gridfuzz/engine/runner.hpp"
#include "gridfuzz/predictor.hpp"

namespace gridfuzz {

BisectResult bisect_first_bad(std::int64_t lo, std::int64_t hi, std::int64_t step,
                              const std::function<bool(std::int64_t)>& is_bad) {
  BisectResult r;
  if (step < 1) step = 1;
  hi = lo + (hi - lo) / step * step;  // snap to the grid
  auto probe = [&](std::int64_t v) {
    ++r.probes;
    return is_bad(v);
  };
  if (probe(lo)) {
    r.first_bad = lo;
    return r;
  }
  if (hi == lo || !probe(hi)) {
    r.last_good = hi;
    return r;
  }
  // Invariant: good at lo (in steps: a), bad at hi (b).
  std::int64_t a = 0, b = (hi - lo) / step;
  while (b - a > 1) {
    const std::int64_t mid = a + (b - a) / 2;
    (probe(lo + mid * step) ? b : a) = mid;
  }
  r.last_good = lo + a * step;
  r.first_bad = lo + b * step;
  return r;
}

std::optional<Params> valid_params_at(const Kernel& k, Params p, const AxisSpec& axis, std::int64_t value) {
  for (int tries = 0; tries < 64 && value <= axis.max; ++tries, value += axis.step) {
    p.set(axis.name, std::to_string(value));
    if (!k.check(p)) return p;
  }
  return std::nullopt;
}

std::vector<AxisChange> axis_changes(const Kernel& k, const Params& base, const AxisSpec& axis,
                                     const std::function<std::vector<bool>(const Params&)>& states) {
  std::vector<AxisChange> out;
  if (axis.is_choice()) return out;
  const std::int64_t step = axis.step < 1 ? 1 : axis.step;
  if (!valid_params_at(k, base, axis, axis.max) || !valid_params_at(k, base, axis, axis.min)) return out;
  // Sample points: min, min + 2^(j/4) steps for growing j, max (all on the axis grid).
  std::vector<std::int64_t> points{axis.min};
  const std::int64_t span_steps = (axis.max - axis.min) / step;
  for (int j = 0; j < 4 * 63; ++j) {
    const double offset = std::pow(2.0, j / 4.0);
    if (offset >= static_cast<double>(span_steps)) break;
    const std::int64_t v = axis.min + static_cast<std::int64_t>(offset) * step;
    if (v != points.back()) points.push_back(v);
  }
  const std::int64_t last = axis.min + span_steps * step;
  if (last != points.back()) points.push_back(last);

  // A value with no valid params reads as "nothing holds" (as a case that cannot be formed).
  // Each value is evaluated once: the bisections of signals that change in the same interval
  // probe the same values.
  std::size_t count = 0;
  std::map<std::int64_t, std::vector<bool>> seen;
  auto states_at = [&](std::int64_t v) {
    auto it = seen.find(v);
    if (it == seen.end()) {
      const auto p = valid_params_at(k, base, axis, v);
      it = seen.emplace(v, p ? states(*p) : std::vector<bool>()).first;
    }
    std::vector<bool> s = it->second;
    if (count == 0) count = s.size();
    s.resize(count, false);
    return s;
  };
  std::vector<std::vector<bool>> sampled;
  sampled.reserve(points.size());
  for (const std::int64_t v : points) sampled.push_back(states_at(v));
  for (auto& s : sampled) s.resize(count, false);  // the first points may have had none
  for (std::size_t signal = 0; signal < count; ++signal) {
    if (sampled.front()[signal]) out.push_back({signal, points.front(), true});
    for (std::size_t i = 1; i < points.size(); ++i) {
      const bool now = sampled[i][signal];
      if (now == sampled[i - 1][signal]) continue;
      // The change lies in (points[i-1], points[i]]: bisect for the first value on the new side.
      const BisectResult b = bisect_first_bad(points[i - 1], points[i], step,
                                              [&](std::int64_t v) { return states_at(v)[signal] == now; });
      out.push_back({signal, *b.first_bad, now});
    }
  }
  return out;
}

void for_each_searched_axis(const Kernel& k, const Params& base, const std::set<std::string>& skip_axes,
                            const std::function<void(const AxisSpec& axis, const Params& at_max)>& visit) {
  for (const AxisSpec& axis : k.axes()) {
    if (axis.is_choice() || skip_axes.contains(axis.name)) continue;
    if (const auto at_max = valid_params_at(k, base, axis, axis.max)) visit(axis, *at_max);
  }
}

std::vector<ModelBoundary> model_boundaries(const Kernel& k, const std::string& variant, const Params& base,
                                            const DeviceLimits& limits,
                                            const std::set<std::string>& skip_axes) {
  std::vector<ModelBoundary> out;
  for_each_searched_axis(k, base, skip_axes, [&](const AxisSpec& axis, const Params& at_max) {
    // The signals: the launch as a whole, and each index the plan declares (named at the maximum).
    std::vector<std::string> signals{"launch"};
    for (const auto& iv : predict(bind_case(k, at_max, variant)->plan(limits), limits).indices) signals.push_back(iv.name);
    auto bad_states = [&](const Prediction& pred) {
      std::vector<bool> s{!pred.accepted()};
      for (std::size_t i = 1; i < signals.size(); ++i) {
        bool bad = false;
        for (const auto& iv : pred.indices)
          if (iv.name == signals[i]) bad = !iv.safe;
        s.push_back(bad);
      }
      return s;
    };
    const auto changes = axis_changes(k, base, axis, [&](const Params& p) {
      return bad_states(predict(bind_case(k, p, variant)->plan(limits), limits));
    });
    for (const AxisChange& c : changes) {
      const std::string& signal = signals[c.signal];
      const std::int64_t bad_side = c.now ? c.at : c.at - axis.step;
      const auto p = valid_params_at(k, base, axis, bad_side);
      const std::string rule = signal != "launch" ? IndexWrap::wrap(signal).to_string()
                               : p                ? predict(bind_case(k, *p, variant)->plan(limits), limits).outcome
                                                  : std::string(to_string(PredictedOutcome::Kind::refuse));
      out.push_back({axis.name, signal, c.at, rule, c.now});
    }
  });
  return out;
}

}  // namespace gridfuzz
