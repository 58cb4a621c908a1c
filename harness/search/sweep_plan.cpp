#include "gridfuzz/search/sweep_plan.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>

#include "gridfuzz/engine/guarded_buffers.hpp"
#include "gridfuzz/predictor.hpp"
#include "gridfuzz/properties/boundary_gen.hpp"
#include "gridfuzz/search/cheaper_crossing.hpp"
#include "gridfuzz/search/repeated_crossings.hpp"
#include "gridfuzz/search/size_crossings.hpp"

namespace gridfuzz {

namespace {

struct StartShape {
  std::string label;  // "defaults" or "<profile>:<role>"
  Params params;
  std::set<std::string> fixed_axes;  // the axes a profile sets: they are the model, not swept
};

// The kernel's defaults, then each profile shape it takes (one it refuses is noted, not run).
std::vector<StartShape> start_shapes(const Kernel& k, const SweepPlanOptions& options, std::vector<std::string>& notes) {
  const auto axes = k.axes();
  const Params defaults = Params::defaults(axes);
  std::vector<StartShape> out{{"defaults", defaults, {}}};
  for (const ModelProfile* profile : options.profiles)
    for (const ProfileShape& shape : shapes_for_axes(*profile, axes)) {
      const Params p = apply_shape(shape, defaults, axes);
      std::optional<std::string> why = Params::validate(p, axes);
      if (!why) why = k.check(p);
      if (why) {
        notes.push_back(k.name() + ": model shape " + shape.label() + " left out: " + *why);
        continue;
      }
      std::set<std::string> fixed;
      for (const auto& kv : shape.values) fixed.insert(kv.first);
      for (const auto& kv : shape.optional) fixed.insert(kv.first);
      out.push_back({shape.label(), p, std::move(fixed)});
    }
  return out;
}

// Who runs a crossing's points besides those a cheaper shape already tests (docs/MODELS.md,
// "Repeated crossings").
struct PointRunners {
  std::set<std::string> skip_all;           // run none of its points
  std::set<std::string> first_broken_only;  // run only at first_broken
  std::optional<std::int64_t> first_broken;  // the offset d where the twin is first broken; none: nowhere
};

// `variant` found `crossing` (planned from `base`); `found_it(v)`: whether variant v found the
// same size crossing there. A variant predicted to fail the same way at every point (refused by
// the same rule whatever wraps behind it, or the same index wrapping in the same launches) runs
// none of them, in any tier: that failure hides what the crossing would show, and its own
// boundary, where it starts to fail, is planned where it turns. A size crossing is run by the
// variants whose own call has it (a buffer all share: all; a size of one variant's launches: it).
// A model boundary is its variant's (the twin's): a variant the model predicts the same for at
// every point (a fix beside it) runs where the twin is first broken (the first bad point, or the
// last where the prediction turns good again), nowhere if the twin is refused on both sides
// (only an index behind the refusal changes: nothing of its boundary shows); another variant
// whose own prediction changes there runs its own crossing's points instead.
template <class FoundIt>
PointRunners point_runners(const Kernel& k, const std::vector<std::string>& variants, const std::string& variant,
                           bool size_crossing, const Params& base, const ModelBoundary& crossing,
                           const DeviceLimits& limits, FoundIt found_it) {
  PointRunners r;
  for (const std::string& v : variants)
    if (fails_at_every_point(k, v, base, crossing, limits) && steady_across(k, v, base, crossing, limits, true))
      r.skip_all.insert(v);
  if (size_crossing) {
    for (const std::string& v : variants)
      if (!found_it(v)) r.skip_all.insert(v);
    return r;
  }
  for (const std::string& v : variants) {
    if (v == variant) continue;
    if (steady_across(k, v, base, crossing, limits)) r.first_broken_only.insert(v);
    else r.skip_all.insert(v);
  }
  if (!steady_across(k, variant, base, crossing, limits, true)) r.first_broken = crossing.becomes_bad ? 0 : -1;
  return r;
}

}  // namespace

std::uint64_t case_device_bytes(const Kernel& kernel, const Params& p) {
  std::uint64_t most = 0;
  for (const std::string& variant : kernel.variants()) {
    std::vector<BufferSpec> specs = kernel.buffers(p, variant), outputs;
    for (const BufferSpec& b : specs)
      if (b.role == BufferRole::output) outputs.push_back(b);
    most = std::max(most, GuardedBuffers::footprint(specs) + GuardedBuffers::footprint(outputs));
  }
  return most;
}

CaseSize planned_size(const Kernel& kernel, const Params& p, const std::string& variant, const DeviceLimits& limits,
                      std::uint64_t bytes) {
  CaseSize size{.bytes = bytes};
  try {
    const LaunchPlan plan = kernel.plan(p, variant, limits);
    double threads = 0;  // a size for ranking, not an index: no product of extents may wrap it
    for (const LaunchSpec& l : plan.launches)
      threads += static_cast<double>(l.grid.x) * static_cast<double>(l.grid.y) * static_cast<double>(l.grid.z) *
                 static_cast<double>(l.block.x) * static_cast<double>(l.block.y) * static_cast<double>(l.block.z);
    size.threads = threads >= 0x1p64 ? UINT64_MAX : static_cast<std::uint64_t>(threads);
    const Prediction prediction = predict(plan, limits);
    size.predicted = plan.host_error || !prediction.accepted() ? CaseSize::Outcome::refused
                     : prediction.index_wrap() != "safe"        ? CaseSize::Outcome::wraps
                                                                : CaseSize::Outcome::runs;
  } catch (const std::exception&) {
    size.predicted = CaseSize::Outcome::refused;  // a shape its host code refuses launches nothing
  }
  return size;
}

SweepPlan plan_sweep(const std::vector<const Kernel*>& kernels, const DeviceLimits& limits,
                     const SweepPlanOptions& options) {
  SweepPlan plan;
  std::size_t over_memory = 0;
  std::uint64_t largest_over = 0;
  std::array<std::size_t, 5> shapes_per_tier{};  // cases (shape x run variant) per SweepTier
  std::size_t shapes_left = 0, shapes_planned = 0;  // start shapes not planned / planned, by the deadline
  std::set<std::string> kernels_cut;
  std::size_t repeated_left_out = 0;  // crossings another copy of which is planned
  const auto out_of_time = [&] { return options.plan_until && std::chrono::steady_clock::now() >= *options.plan_until; };
  for (const Kernel* k : kernels) {
    const auto axes = k->axes();
    const auto variants = k->variants();
    std::vector<std::string> run_variants;
    for (const std::string& v : variants)
      if (options.variants.empty() ||
          std::find(options.variants.begin(), options.variants.end(), v) != options.variants.end())
        run_variants.push_back(v);
    if (run_variants.empty()) continue;

    // Every start shape's boundaries, for every variant; the points (start shape, axis value)
    // are run by every variant but those a point names in `skip` (below).
    std::map<std::string, std::vector<ModelBoundary>> boundaries;  // by variant
    struct Point {
      int tier;
      Params params;
      std::set<std::string> skip;  // variants that test this point's crossing at a cheaper shape
      std::optional<std::size_t> copy;  // its crossing's index in crossing_copies
    };
    // The crossings planned, each with what it tests and costs, so that one found again (from
    // another profile's shape, or further along the same axis) is left to the cheapest that test
    // the same (below).
    std::vector<CrossingCopy> crossing_copies;
    std::vector<Point> points;
    std::vector<Params> speed_points;  // the start shapes, for kSpeed
    std::set<std::string> every_axis;
    for (const AxisSpec& a : axes) every_axis.insert(a.name);
    for (const StartShape& start : start_shapes(*k, options, plan.notes)) {
      if (out_of_time()) {
        ++shapes_left;
        kernels_cut.insert(k->name());
        continue;
      }
      ++shapes_planned;
      speed_points.push_back(start.params);
      const bool from_defaults = start.label == "defaults";
      points.push_back({from_defaults ? kDefaultBoundaries : kProfileBoundaries, start.params, {}, std::nullopt});
      // Each variant's crossings, each at its shape (cheaper_crossing.hpp): a big case's crossing at
      // its cheaper shape. A model boundary keeps the model's boundary: a profile's own value moves
      // only where every point keeps its blocks, turning grid dimensions and riskiest index. A size
      // crossing is model-blind: the profile gives where along the axis it lies, and the axes its
      // size does not depend on (the hidden size, for an output-size crossing) may move.
      struct PlannedCrossing {
        int tier;
        ModelBoundary b;
        Params base;
        std::string variant;
      };
      std::vector<PlannedCrossing> crossings;
      const bool weigh = options.cheaper_crossing_above_bytes != UINT64_MAX;  // --crossings-as-found: nothing to weigh
      // Whether the case at the crossing from `base` needs more device bytes than a crossing
      // planned at every point may (then only its two sides are planned).
      auto still_big = [&](const Params& base, const ModelBoundary& b) {
        Params turn = base;
        turn.set(b.axis, std::to_string(b.first_bad));
        return !k->check(turn) && case_device_bytes(*k, turn) > options.cheaper_crossing_above_bytes;
      };
      auto add_crossings = [&](const std::vector<ModelBoundary>& found, int tier, const std::string& variant) {
        for (const ModelBoundary& b : found) {
          if (start.fixed_axes.contains(b.axis)) continue;  // a profile's own values are not moved
          const bool size_tier = tier == kDefaultSizes || tier == kProfileSizes;
          const std::set<std::string> model_axes = size_tier ? std::set<std::string>{} : start.fixed_axes;
          if (!weigh) {
            crossings.push_back({tier, b, start.params, variant});
            continue;
          }
          // A crossing still big at its cheaper shape is planned at its two sides only (below), so
          // its shape is chosen for those two points: a wrap two steps past it (planned only for a
          // small crossing) holds no axis of it.
          Params base = cheaper_crossing_start(*k, variant, start.params, b, limits, model_axes,
                                               options.cheaper_crossing_above_bytes);
          ModelBoundary sides = b;
          sides.before = std::min(b.before, 1);
          sides.after = std::min(b.after, 0);
          if ((sides.before != b.before || sides.after != b.after) && still_big(base, b)) {
            Params at_sides = cheaper_crossing_start(*k, variant, start.params, sides, limits, model_axes,
                                                     options.cheaper_crossing_above_bytes);
            if (still_big(at_sides, sides)) {
              crossings.push_back({tier, std::move(sides), std::move(at_sides), variant});
              continue;
            }
          }
          crossings.push_back({tier, b, std::move(base), variant});
        }
      };
      for (const std::string& variant : variants) {
        const auto predicted = model_boundaries(*k, variant, start.params, limits, start.fixed_axes);
        const auto sizes = size_crossings(*k, variant, start.params, limits, start.fixed_axes);
        add_crossings(predicted, from_defaults ? kDefaultBoundaries : kProfileBoundaries, variant);
        add_crossings(sizes, from_defaults ? kDefaultSizes : kProfileSizes, variant);
        auto& mine = boundaries[variant];
        mine.insert(mine.end(), predicted.begin(), predicted.end());
        mine.insert(mine.end(), sizes.begin(), sizes.end());
      }
      // Every variant runs every point. Where one variant's crossing stays at the start shape (a wrap
      // among its points, or nothing that moves), its cases there test every variant at that
      // crossing. Another variant whose own crossing of the same point moved runs it there too
      // (its cheaper shape would only test it again), unless its crossing also moves with the
      // model's boundary kept for every axis (cheaper_crossing.hpp: blocks, turning grid dimensions,
      // riskiest index): then it runs at that shape, and the start shape's points skip it. The big
      // start shapes are where the time goes: in the defaults' tier 723 of 769 case-seconds were
      // variants that pass beside one that wraps (evidence/2026-12-03-h200-shared-reference, run2).
      using Key = std::pair<std::string, std::int64_t>;  // (axis, first_bad)
      std::map<Key, std::set<std::string>> stays;        // variants whose crossing there stays at start
      for (const PlannedCrossing& c : crossings)
        if (c.base == start.params) stays[{c.b.axis, c.b.first_bad}].insert(c.variant);
      // A variant moves away from a point only if each of its crossings there moves so.
      std::map<Key, std::set<std::string>> moves_away;   // variants that test that crossing elsewhere
      std::map<Key, std::set<std::string>> held;         // variants with a crossing there that cannot
      for (PlannedCrossing& c : crossings) {
        const Key key{c.b.axis, c.b.first_bad};
        if (c.base == start.params || !stays.contains(key)) continue;
        // A size crossing is model-blind: its cheaper shape (the axes its size does not depend on
        // lowered, the predictions kept at every point) tests it wherever another variant's wrap
        // holds the start shape. A model boundary moves only with the model's boundary kept for
        // every axis.
        const bool size_tier = c.tier == kDefaultSizes || c.tier == kProfileSizes;
        Params strict = size_tier ? c.base
                                  : cheaper_crossing_start(*k, c.variant, start.params, c.b, limits, every_axis,
                                                           options.cheaper_crossing_above_bytes);
        if (strict == start.params || stays[key].contains(c.variant)) {
          c.base = start.params;  // runs the start shape's points, as every variant does
          held[key].insert(c.variant);
          continue;
        }
        c.base = std::move(strict);
        moves_away[key].insert(c.variant);
      }
      for (auto& [key, variants_away] : moves_away)
        std::erase_if(variants_away, [&, &key = key](const std::string& v) { return held[key].contains(v); });
      // A wrap's crossing that moved (every axis held to the model's boundary, cheaper_crossing.hpp)
      // stands where the start shape's points stood: a variant whose every crossing of the same point
      // is at a shape of its own that keeps the model's boundary for every axis skips its points, as
      // it would skip the start shape's. Else it runs that crossing twice, at the wrap's shape and at
      // its own (evidence/2026-12-03-h200-wrap-crossings, run2: gguf.moe_vec fixed at 381300 tokens).
      std::map<std::size_t, std::set<std::string>> wrap_skip;  // index in crossings -> variants
      // The size crossings each variant found here: (variant, axis, first bad value, rule).
      std::set<std::tuple<std::string, std::string, std::int64_t, std::string>> size_found;
      for (const PlannedCrossing& c : crossings)
        if (c.tier == kDefaultSizes || c.tier == kProfileSizes) size_found.insert({c.variant, c.b.axis, c.b.first_bad, c.b.rule});
      // Crossings that stand in for another's points (a variant skips those because it tests the
      // point here): never left out as a repeat, or the point would go untested for it.
      std::set<std::size_t> stand_ins;
      for (std::size_t i = 0; i < crossings.size(); ++i) {
        const PlannedCrossing& c = crossings[i];
        const Key key{c.b.axis, c.b.first_bad};
        if (c.base != start.params && stays.contains(key) && moves_away[key].contains(c.variant)) stand_ins.insert(i);
      }
      if (weigh) {
        std::map<Key, std::vector<std::size_t>> at_key;
        for (std::size_t i = 0; i < crossings.size(); ++i) at_key[{crossings[i].b.axis, crossings[i].b.first_bad}].push_back(i);
        std::map<std::size_t, bool> strict_kept;  // crossing -> its shape keeps the boundary for every axis
        // A size crossing's own shape tests it (model-blind, as above).
        auto kept_for_every_axis = [&](std::size_t i) {
          if (const auto it = strict_kept.find(i); it != strict_kept.end()) return it->second;
          const PlannedCrossing& c = crossings[i];
          if (c.tier == kDefaultSizes || c.tier == kProfileSizes) return strict_kept[i] = true;
          const bool kept = cheaper_crossing_start(*k, c.variant, start.params, c.b, limits, every_axis,
                                                   options.cheaper_crossing_above_bytes) == c.base;
          return strict_kept[i] = kept;
        };
        for (std::size_t i = 0; i < crossings.size(); ++i) {
          const PlannedCrossing& w = crossings[i];
          if (w.base == start.params || !crossing_has_wrap(*k, w.variant, start.params, w.b, limits)) continue;
          std::map<std::string, bool> elsewhere;  // variant -> each of its crossings there is at its own kept shape
          for (const std::size_t j : at_key[{w.b.axis, w.b.first_bad}]) {
            const PlannedCrossing& c = crossings[j];
            if (c.variant == w.variant) continue;
            const auto [it, fresh] = elsewhere.emplace(c.variant, true);
            it->second = it->second && c.base != w.base && kept_for_every_axis(j);
          }
          for (const auto& [variant, skips] : elsewhere)
            if (skips) wrap_skip[i].insert(variant);
          for (const std::size_t j : at_key[{w.b.axis, w.b.first_bad}])
            if (wrap_skip[i].contains(crossings[j].variant)) stand_ins.insert(j);
        }
      }
      for (std::size_t i = 0; i < crossings.size(); ++i) {
        const PlannedCrossing& c = crossings[i];
        const ModelBoundary& b = c.b;
        const Key key{b.axis, b.first_bad};
        std::set<std::string> skip;
        if (c.base != start.params) {
          if (stays.contains(key) && !moves_away[key].contains(c.variant)) continue;
          ++plan.cheaper_crossings;
          if (const auto it = wrap_skip.find(i); it != wrap_skip.end()) skip = it->second;
        } else if (const auto away = moves_away.find(key); away != moves_away.end()) {
          skip = away->second;
        }
        const auto axis = std::find_if(axes.begin(), axes.end(), [&](const AxisSpec& a) { return a.name == b.axis; });
        // A crossing still big at its cheaper shape costs seconds a point (a 2^32-element output:
        // the call and its split reference 8 s each on an H200, evidence/2026-12-02-h200-cheaper):
        // it is tested where it turns, at the last value before and the first after, as a narrow
        // width is (size_crossings.cpp). As found, every point is planned.
        int before = b.before, after = b.after;
        if (weigh) {
          Params turn = c.base;
          turn.set(b.axis, std::to_string(b.first_bad));
          if (!k->check(turn) && case_device_bytes(*k, turn) > options.cheaper_crossing_above_bytes)
            before = std::min(before, 1), after = std::min(after, 0);
        }
        ModelBoundary planned = b;  // the points this crossing plans
        planned.before = before;
        planned.after = after;
        std::optional<std::size_t> copy;
        PointRunners runners;
        if (options.repeated_size_crossings > 0) {
          Params turn = c.base;
          turn.set(b.axis, std::to_string(b.first_bad));
          const bool size_tier = c.tier == kDefaultSizes || c.tier == kProfileSizes;
          // A size crossing is the same test from any start shape; a model boundary is the model's
          // own, so only its repeats along one start shape's axis (an int32 product that wraps
          // again and again) are copies of each other.
          const std::string scope = size_tier ? "size" : "shape " + start.label;
          copy = crossing_copies.size();
          crossing_copies.push_back({scope + '|' + c.variant + '|' + b.axis + '|' + b.rule +
                                         (b.becomes_bad ? "|up|" : "|down|") +
                                         crossing_points_line(*k, c.variant, c.base, planned, limits),
                                     k->check(turn) ? 0 : case_device_bytes(*k, turn),
                                     size_tier ? options.repeated_size_crossings : 1,
                                     c.tier == kDefaultSizes || stand_ins.contains(i)});
          runners = point_runners(*k, variants, c.variant, size_tier, c.base, planned, limits, [&](const std::string& v) {
            return size_found.contains({v, b.axis, b.first_bad, b.rule});
          });
        }
        skip.insert(runners.skip_all.begin(), runners.skip_all.end());
        for (std::int64_t d = -before; d <= after; ++d) {
          const std::int64_t v = b.first_bad + d * axis->step;
          if (v < axis->min || v > axis->max) continue;
          Params p = c.base;
          p.set(b.axis, std::to_string(v));
          std::set<std::string> point_skip = skip;
          if (!runners.first_broken || d != *runners.first_broken)
            point_skip.insert(runners.first_broken_only.begin(), runners.first_broken_only.end());
          points.push_back({c.tier, std::move(p), std::move(point_skip), copy});
        }
      }
    }
    // A crossing that another already tests (the same variant, axis and rule, the same predictions
    // at every point) is planned at the cheapest copies only: a profile's size crossing is
    // model-blind, and the profiles' shapes repeat it dozens of times at full model widths; a model
    // boundary that recurs along its axis (legacy's int32 grid wraps to zero, then to a refused, then
    // to an accepted wrong grid, again every 2^32 elements) is planned where it first occurs. That
    // is where the time went (docs/MODELS.md, "Repeated crossings").
    const std::vector<bool> repeated = repeated_crossings(crossing_copies);
    repeated_left_out += static_cast<std::size_t>(std::count(repeated.begin(), repeated.end(), true));
    std::erase_if(points, [&](const Point& p) { return p.copy && repeated[*p.copy]; });
    // Valid points, once each (at their most telling tier), that fit in the device's memory. A
    // point planned more than once skips only the variants every one of its plans skips.
    std::stable_sort(points.begin(), points.end(), [](const Point& a, const Point& b) { return a.tier < b.tier; });
    struct Kept {
      int tier;
      std::uint64_t bytes;
      Params params;
      std::set<std::string> skip;
    };
    std::vector<Kept> kept;
    std::map<std::string, std::size_t> seen;  // params -> index in kept
    std::set<std::string> refused;
    for (Point& point : points) {
      const std::string text = point.params.to_string();
      if (const auto it = seen.find(text); it != seen.end()) {
        std::set<std::string>& skip = kept[it->second].skip;
        std::erase_if(skip, [&](const std::string& v) { return !point.skip.contains(v); });
        continue;
      }
      if (refused.contains(text)) continue;
      if (k->check(point.params)) {
        refused.insert(text);
        continue;
      }
      const std::uint64_t need = case_device_bytes(*k, point.params);
      if (limits.total_mem_bytes > 0 && need > limits.total_mem_bytes) {
        ++over_memory;
        largest_over = std::max(largest_over, need);
        refused.insert(text);
        continue;
      }
      seen.emplace(text, kept.size());
      kept.push_back({point.tier, need, std::move(point.params), std::move(point.skip)});
    }
    // The speed tier keeps its own copy of each start shape (the boundary tiers have it too: a
    // sweep of both runs it once).
    std::set<std::string> speed_seen;
    for (Params& p : speed_points) {
      if (k->check(p) || !speed_seen.insert(p.to_string()).second) continue;
      const std::uint64_t need = case_device_bytes(*k, p);
      if (limits.total_mem_bytes > 0 && need > limits.total_mem_bytes) continue;  // counted above
      kept.push_back({kSpeed, need, std::move(p), {}});
    }
    // Within a tier, the smallest shapes first: a time budget then cuts the few huge cases (a
    // 786k-token GEMV runs for seconds) and keeps the many boundary points that cost little.
    std::stable_sort(kept.begin(), kept.end(),
                     [](const Kept& a, const Kept& b) { return std::tie(a.tier, a.bytes) < std::tie(b.tier, b.bytes); });
    for (const std::string& variant : run_variants) {
      SweepTarget t;
      t.kernel = k;
      t.variant = variant;
      t.boundaries = boundaries[variant];
      for (const Kept& c : kept) {
        if (c.skip.contains(variant)) continue;
        ++shapes_per_tier[c.tier];
        t.boundary_cases.push_back(Case{k->name(), variant, c.params, 1});
        t.tiers.push_back(c.tier);
        t.sizes.push_back(options.sizes ? planned_size(*k, c.params, variant, limits, c.bytes) : CaseSize{.bytes = c.bytes});
      }
      plan.targets.push_back(std::move(t));
    }
  }
  // A budget cuts the sweep tier by tier: say how big each tier is, so a budget can be chosen.
  plan.notes.push_back("boundary cases per tier: defaults' boundaries " + std::to_string(shapes_per_tier[0]) +
                       ", profiles' boundaries " + std::to_string(shapes_per_tier[1]) + ", defaults' size crossings " +
                       std::to_string(shapes_per_tier[2]) + ", profiles' size crossings " +
                       std::to_string(shapes_per_tier[3]) + "; speed tier " + std::to_string(shapes_per_tier[4]) +
                       " (not in `all`)");
  if (plan.cheaper_crossings > 0)
    plan.notes.push_back(std::to_string(plan.cheaper_crossings) + " crossing(s) of cases over " +
                         std::to_string(options.cheaper_crossing_above_bytes >> 20) +
                         " MiB planned with the axes they do not depend on lowered (docs/MODELS.md)");
  if (repeated_left_out > 0)
    plan.notes.push_back(std::to_string(repeated_left_out) + " repeated crossing(s) left out: a size crossing is planned " +
                         "at the " + std::to_string(options.repeated_size_crossings) +
                         " cheapest shape(s) that test it (the defaults' first), a model boundary where it first occurs along its axis " +
                         "(docs/MODELS.md, \"Repeated crossings\")");
  if (shapes_left > 0) {
    std::string names;
    for (const std::string& n : kernels_cut) names += (names.empty() ? "" : ", ") + n;
    plan.notes.push_back("planning stopped at half the time budget: " + std::to_string(shapes_left) + " of " +
                         std::to_string(shapes_left + shapes_planned) +
                         " start shape(s) not planned, their boundary cases not in this sweep (" + names + ")");
  }
  if (over_memory > 0)
    plan.notes.push_back(std::to_string(over_memory) + " boundary shape(s) left out: larger than the device's memory (" +
                         std::to_string(limits.total_mem_bytes >> 20) + " MiB; the largest needs " +
                         std::to_string(largest_over >> 20) + " MiB)");
  return plan;
}

// SweepTier numbers the vocabulary's boundary tiers: its words are the tiers' names.
static_assert(kBoundaryTiers[kDefaultBoundaries] == CaseTier::defaults);
static_assert(kBoundaryTiers[kProfileBoundaries] == CaseTier::profiles);
static_assert(kBoundaryTiers[kDefaultSizes] == CaseTier::default_sizes);
static_assert(kBoundaryTiers[kProfileSizes] == CaseTier::profile_sizes);
static_assert(kBoundaryTiers[kSpeed] == CaseTier::speed);

CaseTier boundary_case_tier(int tier) {
  if (tier < 0 || static_cast<std::size_t>(tier) >= std::size(kBoundaryTiers))
    throw std::out_of_range("no boundary tier " + std::to_string(tier));
  return kBoundaryTiers[tier];
}

std::vector<std::string> boundary_tier_names() {
  std::vector<std::string> names;
  for (int tier = kDefaultBoundaries; tier <= kSpeed; ++tier) names.emplace_back(to_string(boundary_case_tier(tier)));
  names.insert(names.end(), {"all", "none"});  // words of the command line only
  return names;
}

namespace {

// Keeps the boundary cases i of `t` with keep(i), and their tiers and sizes beside them.
template <class Keep>
void keep_cases_if(SweepTarget& t, Keep keep) {
  std::vector<Case> cases;
  std::vector<int> tiers;
  std::vector<CaseSize> sizes;
  for (std::size_t i = 0; i < t.boundary_cases.size(); ++i) {
    if (!keep(i)) continue;
    cases.push_back(std::move(t.boundary_cases[i]));
    tiers.push_back(i < t.tiers.size() ? t.tiers[i] : kDefaultBoundaries);
    if (i < t.sizes.size()) sizes.push_back(t.sizes[i]);
  }
  t.boundary_cases = std::move(cases);
  t.tiers = std::move(tiers);
  t.sizes = std::move(sizes);
}

}  // namespace

void keep_boundary_tiers(SweepPlan& plan, const std::vector<std::string>& names) {
  const std::vector<std::string> all = boundary_tier_names();
  std::set<int> keep;
  for (const std::string& name : names) {
    const auto it = std::find(all.begin(), all.end(), name);
    if (it == all.end()) throw std::invalid_argument("--tiers: unknown tier '" + name + "'");
    const int tier = static_cast<int>(it - all.begin());
    if (name == "all") keep.insert({kDefaultBoundaries, kProfileBoundaries, kDefaultSizes, kProfileSizes});
    else if (name != "none") keep.insert(tier);
  }
  for (SweepTarget& t : plan.targets) {
    keep_cases_if(t, [&](std::size_t i) { return keep.contains(i < t.tiers.size() ? t.tiers[i] : kDefaultBoundaries); });
  }
}

void keep_matching_cases(SweepPlan& plan, const AxisFilter& where) {
  if (where.empty()) return;
  std::vector<SweepTarget> kept;
  std::set<std::string> left_out;
  for (SweepTarget& t : plan.targets) {
    const std::vector<AxisSpec> axes = t.kernel->axes();
    if (!where.applies_to(axes)) {
      if (left_out.insert(t.kernel->name()).second)
        plan.notes.push_back(t.kernel->name() + ": not swept: it lacks an axis of --where '" + where.to_string() + "'");
      continue;
    }
    keep_cases_if(t, [&](std::size_t i) { return where.matches(axes, t.boundary_cases[i].params); });
    kept.push_back(std::move(t));
  }
  plan.targets = std::move(kept);
}

namespace {

using AxisValueGen = rc::Gen<std::pair<std::string, std::string>>;

// One Params from one generator per axis.
rc::Gen<Params> combine(const std::vector<AxisValueGen>& axis_gens) {
  rc::Gen<Params> gen = rc::gen::just(Params());
  for (const auto& g : axis_gens)
    gen = rc::gen::map(rc::gen::pair(gen, g), [](const std::pair<Params, std::pair<std::string, std::string>>& x) {
      Params p = x.first;
      p.set(x.second.first, x.second.second);
      return p;
    });
  return gen;
}

}  // namespace

rc::Gen<Params> random_params(const Kernel& kernel, const std::vector<ModelBoundary>& boundaries) {
  std::vector<AxisValueGen> near_gens, wide_gens;
  for (const AxisSpec& a : kernel.axes()) {
    if (a.is_choice()) {
      const AxisValueGen choice = rc::gen::map(rc::gen::elementOf(a.choices),
                                               [name = a.name](const std::string& v) { return std::make_pair(name, v); });
      near_gens.push_back(choice);
      wide_gens.push_back(choice);
      continue;
    }
    const auto lo = static_cast<std::uint64_t>(a.min), hi = static_cast<std::uint64_t>(a.max);
    const auto step = static_cast<std::uint64_t>(a.step);
    auto on_grid = [name = a.name, lo, step](std::uint64_t v) {
      return std::make_pair(name, std::to_string(lo + (v - lo) / step * step));
    };
    // Whichever branch drew it, a failing value shrinks towards the axis minimum, so the minimal
    // case is the smallest failing value, not the nearest anchor.
    auto shrinking = [lo](rc::Gen<std::uint64_t> g) {
      return rc::gen::shrink(std::move(g), [lo](std::uint64_t v) { return rc::shrink::towards(v, lo); });
    };
    // Near the default and each predicted boundary (+-2 steps), or any order of magnitude.
    std::vector<std::uint64_t> anchors{static_cast<std::uint64_t>(std::stoll(a.default_value))};
    for (const auto& b : boundaries)
      if (b.axis == a.name) anchors.push_back(static_cast<std::uint64_t>(b.first_bad));
    auto near = rc::gen::map(rc::gen::pair(rc::gen::elementOf(anchors), rc::gen::inRange<int>(-2, 3)),
                             [lo, hi, step](const std::pair<std::uint64_t, int>& x) {
                               const auto d = static_cast<std::uint64_t>(x.second < 0 ? -x.second : x.second) * step;
                               std::uint64_t v = x.second < 0 ? (x.first - lo >= d ? x.first - d : lo) : x.first + d;
                               return std::min(v, hi);
                             });
    near_gens.push_back(rc::gen::map(
        shrinking(rc::gen::weightedOneOf<std::uint64_t>({{3, near}, {1, properties::log_uniform(lo, hi)}})), on_grid));
    wide_gens.push_back(rc::gen::map(shrinking(properties::log_uniform(lo, hi)), on_grid));
  }
  // Half the draws stay near the boundaries; the other half draw every integer axis at once,
  // log-uniform over its whole declared range, so a failing region nobody predicted is reached
  // wherever it lies (docs/MODELS.md, "The random phase": how many draws find what). At full
  // size from the first draw: rapidcheck scales its ranges by a size that grows from 0 over a
  // run, which would keep the early draws (all of them, in a short run) near each axis minimum.
  return rc::gen::resize(rc::kNominalSize,
                         rc::gen::weightedOneOf<Params>({{1, combine(near_gens)}, {1, combine(wide_gens)}}));
}

}  // namespace gridfuzz
