#include "sweep_plan.hpp"

#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>

#include "gridfuzz/properties/boundary_gen.hpp"

namespace gridfuzz::cli {

std::vector<SweepTarget> plan_sweep(const std::vector<const Kernel*>& kernels, const DeviceLimits& limits) {
  std::vector<SweepTarget> targets;
  for (const Kernel* k : kernels) {
    const Params base = Params::defaults(k->axes());
    for (const std::string& variant : k->variants()) {
      SweepTarget t;
      t.kernel = k;
      t.variant = variant;
      t.boundaries = model_boundaries(*k, variant, base, limits);
      std::set<std::string> seen;
      // The defaults themselves, then every boundary from two steps below to two above.
      auto add = [&](const Params& p) {
        if (k->check(p)) return;
        Case c{k->name(), variant, p, 1};
        if (seen.insert(c.replay()).second) t.boundary_cases.push_back(std::move(c));
      };
      add(base);
      for (const ModelBoundary& b : t.boundaries) {
        const auto& axes = k->axes();
        const auto axis = std::find_if(axes.begin(), axes.end(), [&](const AxisSpec& a) { return a.name == b.axis; });
        for (std::int64_t d = -2; d <= 2; ++d) {
          const std::int64_t v = b.first_bad + d * axis->step;
          if (v < axis->min || v > axis->max) continue;
          Params p = base;
          p.set(b.axis, std::to_string(v));
          add(p);
        }
      }
      targets.push_back(std::move(t));
    }
  }
  return targets;
}

std::string save_to_corpus(const Case& c, const std::string& dir) {
  std::filesystem::create_directories(dir);
  const std::string path = (std::filesystem::path(dir) / (c.id() + ".replay")).string();
  std::ofstream f(path);
  if (!(f << c.replay() << "\n")) throw std::runtime_error("--save-corpus: cannot write " + path);
  return path;
}

rc::Gen<Params> random_params(const Kernel& kernel, const std::vector<ModelBoundary>& boundaries) {
  std::vector<rc::Gen<std::pair<std::string, std::string>>> axis_gens;
  for (const AxisSpec& a : kernel.axes()) {
    if (a.is_choice()) {
      axis_gens.push_back(rc::gen::map(rc::gen::elementOf(a.choices),
                                       [name = a.name](const std::string& v) { return std::make_pair(name, v); }));
      continue;
    }
    // Near the default and each predicted boundary (+-2 steps), or any order of magnitude; the
    // axis' far end is reached only through a boundary that lies there.
    const auto lo = static_cast<std::uint64_t>(a.min), hi = static_cast<std::uint64_t>(a.max);
    const auto step = static_cast<std::uint64_t>(a.step);
    std::vector<std::uint64_t> anchors{static_cast<std::uint64_t>(std::stoll(a.default_value))};
    for (const auto& b : boundaries)
      if (b.axis == a.name) anchors.push_back(static_cast<std::uint64_t>(b.first_bad));
    auto near = rc::gen::map(rc::gen::pair(rc::gen::elementOf(anchors), rc::gen::inRange<int>(-2, 3)),
                             [lo, hi, step](const std::pair<std::uint64_t, int>& x) {
                               const auto d = static_cast<std::uint64_t>(x.second < 0 ? -x.second : x.second) * step;
                               std::uint64_t v = x.second < 0 ? (x.first - lo >= d ? x.first - d : lo) : x.first + d;
                               return std::min(v, hi);
                             });
    auto value = rc::gen::weightedOneOf<std::uint64_t>({{3, near}, {1, properties::log_uniform(lo, hi)}});
    axis_gens.push_back(rc::gen::map(value, [name = a.name, lo, step](std::uint64_t v) {
      return std::make_pair(name, std::to_string(lo + (v - lo) / step * step));  // onto the axis grid
    }));
  }
  // Combine the per-axis generators one by one into a Params.
  rc::Gen<Params> gen = rc::gen::just(Params());
  for (auto& g : axis_gens)
    gen = rc::gen::map(rc::gen::pair(gen, g), [](const std::pair<Params, std::pair<std::string, std::string>>& x) {
      Params p = x.first;
      p.set(x.second.first, x.second.second);
      return p;
    });
  return gen;
}

}  // namespace gridfuzz::cli
