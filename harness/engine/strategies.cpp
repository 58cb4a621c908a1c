#include "gridfuzz/strategies.hpp"

#include <cmath>

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

namespace {

// The prediction at `value` on `axis`, moving up to the next value check() accepts.
std::optional<Prediction> predict_at(const Kernel& k, const std::string& variant, Params p, const AxisSpec& axis,
                                     std::int64_t value, const DeviceLimits& limits) {
  for (int tries = 0; tries < 64 && value <= axis.max; ++tries, value += axis.step) {
    p.set(axis.name, std::to_string(value));
    if (k.check(p)) continue;
    return predict(k.plan(p, variant, limits), limits);
  }
  return std::nullopt;
}

bool index_bad(const Prediction& p, const std::string& name) {
  for (const auto& iv : p.indices)
    if (iv.name == name) return !iv.safe;
  return false;
}

}  // namespace

std::vector<ModelBoundary> model_boundaries(const Kernel& k, const std::string& variant, const Params& base,
                                            const DeviceLimits& limits) {
  std::vector<ModelBoundary> out;
  for (const AxisSpec& axis : k.axes()) {
    if (axis.is_choice()) continue;
    const std::int64_t step = axis.step < 1 ? 1 : axis.step;
    const auto at_max = predict_at(k, variant, base, axis, axis.max, limits);
    if (!at_max || !predict_at(k, variant, base, axis, axis.min, limits)) continue;
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

    std::vector<std::string> signals{"launch"};
    for (const auto& iv : at_max->indices) signals.push_back(iv.name);
    for (const std::string& signal : signals) {
      auto bad = [&](std::int64_t v) {
        const auto p = predict_at(k, variant, base, axis, v, limits);
        if (!p) return false;
        return signal == "launch" ? !p->accepted() : index_bad(*p, signal);
      };
      bool prev = bad(points.front());
      if (prev) {  // bad from the very first value: that is a boundary too (the axis minimum)
        const auto p = predict_at(k, variant, base, axis, points.front(), limits);
        out.push_back({axis.name, signal, points.front(), signal == "launch" ? p->outcome : "wrap:" + signal, true});
      }
      for (std::size_t i = 1; i < points.size(); ++i) {
        const bool now = bad(points[i]);
        if (now == prev) continue;
        // The change lies in (points[i-1], points[i]]: bisect for the first value on the new side.
        const BisectResult b =
            bisect_first_bad(points[i - 1], points[i], step, [&](std::int64_t v) { return bad(v) == now; });
        const std::int64_t at = *b.first_bad;
        const std::int64_t bad_side = now ? at : at - step;
        const auto p = predict_at(k, variant, base, axis, bad_side, limits);
        out.push_back({axis.name, signal, at, signal == "launch" ? p->outcome : "wrap:" + signal, now});
        prev = now;
      }
    }
  }
  return out;
}

}  // namespace gridfuzz
