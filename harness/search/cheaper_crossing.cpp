#include "gridfuzz/search/cheaper_crossing.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <set>
#include <tuple>
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

// The model's boundary at a point, beyond its prediction: the launches' shapes, the riskiest
// index and every index that wraps there (name and largest value). Compared in part
// (model_boundary_kept): only the grid dimensions that turn, unless a wrap is among the points.
struct PointGeometry {
  std::vector<Dim3> grids, blocks;
  std::vector<std::uint64_t> smem;
  std::string riskiest_index;
  u128 riskiest_max = 0;
  std::vector<std::pair<std::string, u128>> wrapping;
};

struct Point {
  PointSignature signature;
  PointGeometry geometry;
};

Point point_at(const Kernel& k, const std::string& variant, const Params& p, const ModelBoundary& crossing,
               const DeviceLimits& limits) {
  Point out;
  PointSignature& s = out.signature;
  if (k.check(p)) return out;
  s.valid = true;
  const std::unique_ptr<BoundCase> bound = bind_case(k, p, variant);
  const LaunchPlan plan = bound->plan(limits);
  const Prediction prediction = predict(plan, limits);
  s.outcome = prediction.outcome;
  s.wrap = prediction.index_wrap();
  for (const LaunchSpec& l : plan.launches) {
    s.launches.push_back(l.name);
    out.geometry.grids.push_back(l.grid);
    out.geometry.blocks.push_back(l.block);
    out.geometry.smem.push_back(l.dynamic_smem_bytes);
  }
  for (const IndexVerdict& index : prediction.indices)
    if (!index.safe) out.geometry.wrapping.emplace_back(index.name, index.max_value);
  if (const IndexVerdict* riskiest = prediction.riskiest_index()) {
    out.geometry.riskiest_index = riskiest->name;
    out.geometry.riskiest_max = riskiest->max_value;
  }
  if (crossing.threshold > 0)
    s.size_over = call_size_named(*bound, plan, p, limits, crossing.signal) >= crossing.threshold;
  return out;
}

// A launch told apart across the points of a crossing by its name and how many launches of that
// name come before it: a crossing can add launches (a quantizer chunked at 65536 vectors launches
// twice), and then the launch at one position is another kernel at the next point.
using LaunchKey = std::pair<std::string, std::size_t>;

std::vector<LaunchKey> launch_keys(const std::vector<std::string>& names) {
  std::vector<LaunchKey> keys;
  std::map<std::string, std::size_t> seen;
  for (const std::string& name : names) keys.emplace_back(name, seen[name]++);
  return keys;
}

// Per launch, which grid dimensions (x, y, z) take more than one value over the crossing's valid
// points: those are the crossing's own. A launch missing at a point that launches others turns in
// every dimension (a point that launches nothing, a host error, tells nothing of the grids), and
// with fewer than two valid points every dimension does.
std::map<LaunchKey, std::array<bool, 3>> turning_dimensions(const std::vector<Point>& points) {
  std::vector<const Point*> valid;
  for (const Point& p : points)
    if (p.signature.valid) valid.push_back(&p);
  std::map<LaunchKey, std::array<bool, 3>> turning;
  std::map<LaunchKey, std::pair<Dim3, std::size_t>> first_seen;  // its grid where first seen, and at how many points
  for (const Point* p : valid) {
    const std::vector<LaunchKey> keys = launch_keys(p->signature.launches);
    for (std::size_t i = 0; i < keys.size() && i < p->geometry.grids.size(); ++i) {
      const Dim3& g = p->geometry.grids[i];
      auto [it, fresh] = first_seen.emplace(keys[i], std::pair{g, std::size_t{0}});
      ++it->second.second;
      std::array<bool, 3>& t = turning[keys[i]];
      if (fresh) t = {valid.size() < 2, valid.size() < 2, valid.size() < 2};
      const Dim3& a = it->second.first;
      t[0] = t[0] || a.x != g.x;
      t[1] = t[1] || a.y != g.y;
      t[2] = t[2] || a.z != g.z;
    }
  }
  const auto launching = static_cast<std::size_t>(
      std::count_if(valid.begin(), valid.end(), [](const Point* p) { return !p->signature.launches.empty(); }));
  for (const auto& [key, seen] : first_seen)
    if (seen.second < launching) turning[key] = {true, true, true};
  return turning;
}

// Every point keeps the model's boundary: blocks, shared memory, the turning grid dimensions, the
// riskiest index and each wrapping index. The launches' names are already equal (PointSignature).
bool model_boundary_kept(const std::vector<Point>& wanted, const std::vector<Point>& candidate,
                         const std::map<LaunchKey, std::array<bool, 3>>& turning) {
  for (std::size_t i = 0; i < wanted.size(); ++i) {
    const PointGeometry& a = wanted[i].geometry;
    const PointGeometry& b = candidate[i].geometry;
    if (a.blocks != b.blocks || a.smem != b.smem || a.riskiest_index != b.riskiest_index ||
        a.riskiest_max != b.riskiest_max || a.wrapping != b.wrapping)
      return false;
    const std::vector<LaunchKey> keys = launch_keys(wanted[i].signature.launches);
    for (std::size_t l = 0; l < keys.size() && l < a.grids.size() && l < b.grids.size(); ++l) {
      const auto t = turning.find(keys[l]);
      if (t == turning.end()) continue;
      if (t->second[0] && a.grids[l].x != b.grids[l].x) return false;
      if (t->second[1] && a.grids[l].y != b.grids[l].y) return false;
      if (t->second[2] && a.grids[l].z != b.grids[l].z) return false;
    }
  }
  return true;
}

// The signature at each planned point of `crossing` from `start`, in order (d = -before ..
// after); a point off the axis' range is not a case (valid false).
std::vector<PointSignature> planned_signatures(const Kernel& k, const std::string& variant, const Params& start,
                                               const ModelBoundary& crossing, const DeviceLimits& limits) {
  std::vector<PointSignature> out;
  const auto axes = k.axes();
  const auto axis = std::find_if(axes.begin(), axes.end(), [&](const AxisSpec& a) { return a.name == crossing.axis; });
  if (axis == axes.end()) return out;
  for (std::int64_t d = -crossing.before; d <= crossing.after; ++d) {
    const std::int64_t v = crossing.first_bad + d * axis->step;
    if (v < axis->min || v > axis->max) {
      out.emplace_back();
      continue;
    }
    Params p = start;
    p.set(crossing.axis, std::to_string(v));
    out.push_back(point_at(k, variant, p, crossing, limits).signature);
  }
  return out;
}

}  // namespace

bool crossing_has_wrap(const Kernel& k, const std::string& variant, const Params& start, const ModelBoundary& crossing,
                       const DeviceLimits& limits) {
  for (const PointSignature& s : planned_signatures(k, variant, start, crossing, limits))
    if (s.valid && s.wrap != "safe") return true;
  return false;
}

std::string crossing_points_line(const Kernel& k, const std::string& variant, const Params& start,
                                 const ModelBoundary& crossing, const DeviceLimits& limits) {
  std::string line;
  for (const PointSignature& s : planned_signatures(k, variant, start, crossing, limits)) {
    if (!s.valid) {
      line += "none;";
      continue;
    }
    line += s.outcome + ',' + s.wrap + ',' + (s.size_over ? "over" : "under");
    for (const std::string& name : std::set<std::string>(s.launches.begin(), s.launches.end())) line += ',' + name;
    line += ';';
  }
  return line;
}

bool steady_across(const Kernel& k, const std::string& variant, const Params& start, const ModelBoundary& crossing,
                   const DeviceLimits& limits, bool as_observed) {
  using Seen = std::tuple<std::string, std::string, std::set<std::string>>;
  std::optional<Seen> first;
  for (const PointSignature& s : planned_signatures(k, variant, start, crossing, limits)) {
    if (!s.valid) return false;
    Seen here = as_observed && s.outcome != "accept"
                    ? Seen{s.outcome, "", {}}
                    : Seen{s.outcome, s.wrap, {s.launches.begin(), s.launches.end()}};
    if (!first) first = std::move(here);
    else if (*first != here) return false;
  }
  return first.has_value();
}

bool fails_at_every_point(const Kernel& k, const std::string& variant, const Params& start, const ModelBoundary& crossing,
                          const DeviceLimits& limits) {
  bool any = false;
  for (const PointSignature& s : planned_signatures(k, variant, start, crossing, limits)) {
    if (!s.valid) continue;
    if (s.outcome == "accept" && s.wrap == "safe") return false;
    any = true;
  }
  return any;
}

Params cheaper_crossing_start(const Kernel& k, const std::string& variant, const Params& start,
                              const ModelBoundary& crossing, const DeviceLimits& limits,
                              const std::set<std::string>& model_axes, std::uint64_t above_bytes) {
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
  auto points = [&](const Params& p) {
    std::vector<Point> out;
    for (const std::int64_t v : values) out.push_back(point_at(k, variant, at(p, v), crossing, limits));
    return out;
  };
  auto signatures = [](const std::vector<Point>& ps) {
    std::vector<PointSignature> out;
    for (const Point& p : ps) out.push_back(p.signature);
    return out;
  };
  const auto start_cost = cost(start);
  if (!start_cost || *start_cost <= above_bytes) return start;
  const std::vector<Point> wanted_points = points(start);
  const std::vector<PointSignature> wanted = signatures(wanted_points);
  // What a wrapping index does depends on the addresses it reaches: at a lowered axis that the
  // wrapping index depends on, the same predicted wrap left vllm.quantize_q8_1's output right at
  // one column (evidence/2026-12-02-h200-cheaper, run3). So where a wrap is among the points, every
  // axis is held to the model's boundary, and each wrapping index (and the riskiest) keeps its
  // largest value: the wrapped offsets are the same, and an axis moves only where none of them
  // depends on it (the output columns of a wrapped input offset, say), which cuts the work that
  // multiplies them. The grid dimensions that do not turn may change with such an axis.
  const bool wraps =
      std::any_of(wanted.begin(), wanted.end(), [](const PointSignature& s) { return s.valid && s.wrap != "safe"; });
  const std::map<LaunchKey, std::array<bool, 3>> turning = turning_dimensions(wanted_points);

  Params best = start;
  std::uint64_t best_cost = *start_cost;
  for (const AxisSpec& axis : axes) {
    if (axis.is_choice() || axis.name == crossing.axis) continue;
    const bool model_axis = wraps || model_axes.contains(axis.name);
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
      if (!c || *c >= best_cost) continue;
      const std::vector<Point> moved = points(*candidate);
      if (signatures(moved) != wanted) continue;
      if (model_axis && !model_boundary_kept(wanted_points, moved, turning)) continue;
      best = *candidate;
      best_cost = *c;
      break;  // the smallest value tried that keeps the crossing
    }
  }
  return best;
}

}  // namespace gridfuzz
