#include "gridfuzz/search/size_crossings.hpp"

#include <algorithm>
#include <optional>

#include "gridfuzz/checked_math.hpp"
#include "gridfuzz/engine/runner.hpp"
#include "gridfuzz/predictor.hpp"

namespace gridfuzz {
namespace {

std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) { return checked_mul(a, b).value_or(UINT64_MAX); }

std::string threshold_text(std::uint64_t t) {
  int bit = 0;
  while ((std::uint64_t{1} << bit) < t) ++bit;
  return "2^" + std::to_string(bit);
}

// Byte sizes are byte offsets, which code forms in 32 or 64 bits; the narrow widths (8, 16 and
// 24 bits) hold element indices, counts and axis values, so a byte size is watched at 2^31 and
// 2^32 only.
bool width_applies(const std::string& size_name, std::uint64_t threshold) {
  const bool bytes = size_name.size() >= 6 && size_name.compare(size_name.size() - 6, 6, " bytes") == 0;
  return !bytes || threshold >= (std::uint64_t{1} << 31);
}

std::optional<std::uint64_t> int_value(const Params& p, const std::string& axis) {
  try {
    return p.get_u64(axis);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// "axis a" or "axes a*b": a size read off the parameters, no plan needed. Else nothing.
std::optional<std::uint64_t> axis_size_named(const Params& p, const std::string& name) {
  if (name.starts_with("axis ")) return int_value(p, name.substr(5)).value_or(0);
  if (name.starts_with("axes ")) {
    const std::string pair = name.substr(5);
    const std::size_t star = pair.find('*');
    if (star == std::string::npos) return 0;
    const auto a = int_value(p, pair.substr(0, star)), b = int_value(p, pair.substr(star + 1));
    return a && b ? saturating_mul(*a, *b) : 0;
  }
  return std::nullopt;
}

std::uint64_t size_named(const std::vector<CallSize>& sizes, const std::string& name) {
  for (const CallSize& s : sizes)
    if (s.name == name) return s.value;
  return 0;
}

}  // namespace

std::vector<CallSize> call_sizes(const Kernel& k, const std::string& variant, const Params& p,
                                 const DeviceLimits& limits) {
  const std::unique_ptr<BoundCase> bound = bind_case(k, p, variant);
  return call_sizes(*bound, bound->plan(limits), limits);
}

std::vector<CallSize> call_sizes(const BoundCase& bound, const LaunchPlan& plan, const DeviceLimits& limits) {
  std::vector<CallSize> out;
  for (const BufferSpec& b : bound.buffers()) {
    out.push_back({"buffer " + b.name + " elements", b.elements});
    out.push_back({"buffer " + b.name + " bytes", saturating_mul(b.elements, element_bytes(b.type))});
  }
  std::uint64_t threads = 0, threads_dim[3] = {0, 0, 0}, blocks = 0, blocks_dim[3] = {0, 0, 0}, block_threads = 0;
  for (const LaunchSpec& l : plan.launches) {
    // A launch the device refuses runs no thread: its grid (a wrapped int32, say) is no size an
    // index of the call covers.
    if (!predict_launch(l, limits).accepted) continue;
    const std::uint64_t grid[3] = {l.grid.x, l.grid.y, l.grid.z}, block[3] = {l.block.x, l.block.y, l.block.z};
    for (int d = 0; d < 3; ++d) {
      threads_dim[d] = std::max(threads_dim[d], saturating_mul(grid[d], block[d]));
      blocks_dim[d] = std::max(blocks_dim[d], grid[d]);
    }
    const std::uint64_t g = saturating_mul(saturating_mul(grid[0], grid[1]), grid[2]);
    const std::uint64_t b = saturating_mul(saturating_mul(block[0], block[1]), block[2]);
    threads = std::max(threads, saturating_mul(g, b));
    blocks = std::max(blocks, g);
    block_threads = std::max(block_threads, b);
  }
  out.push_back({"launch threads", threads});
  out.push_back({"launch threads.x", threads_dim[0]});
  out.push_back({"launch threads.y", threads_dim[1]});
  out.push_back({"launch threads.z", threads_dim[2]});
  out.push_back({"launch blocks", blocks});
  out.push_back({"launch blocks.x", blocks_dim[0]});
  out.push_back({"launch blocks.y", blocks_dim[1]});
  out.push_back({"launch blocks.z", blocks_dim[2]});
  out.push_back({"launch block threads", block_threads});
  return out;
}

std::uint64_t call_size_named(const Kernel& k, const std::string& variant, const Params& p,
                              const DeviceLimits& limits, const std::string& name) {
  if (const auto v = axis_size_named(p, name)) return *v;
  return size_named(call_sizes(k, variant, p, limits), name);
}

std::uint64_t call_size_named(const BoundCase& bound, const LaunchPlan& plan, const Params& p,
                              const DeviceLimits& limits, const std::string& name) {
  if (const auto v = axis_size_named(p, name)) return *v;
  return size_named(call_sizes(bound, plan, limits), name);
}

std::vector<std::string> sized_axes(const Kernel& k, const std::string& variant, const Params& base,
                                    const DeviceLimits& limits, const std::set<std::string>& skip_axes) {
  std::vector<std::string> out;
  for (const AxisSpec& axis : k.axes()) {
    if (axis.is_choice() || skip_axes.contains(axis.name)) continue;
    const auto at_min = valid_params_at(k, base, axis, axis.min);
    const auto at_max = valid_params_at(k, base, axis, axis.max);
    if (!at_min || !at_max) continue;
    const auto lo = call_sizes(k, variant, *at_min, limits), hi = call_sizes(k, variant, *at_max, limits);
    const bool same = lo.size() == hi.size() && std::equal(lo.begin(), lo.end(), hi.begin(), [](const auto& a, const auto& b) {
                        return a.name == b.name && a.value == b.value;
                      });
    if (!same) out.push_back(axis.name);
  }
  return out;
}

std::vector<ModelBoundary> size_crossings(const Kernel& k, const std::string& variant, const Params& base,
                                          const DeviceLimits& limits,
                                          const std::set<std::string>& skip_axes) {
  std::vector<ModelBoundary> out;
  const std::vector<std::string> sized = sized_axes(k, variant, base, limits, skip_axes);
  for_each_searched_axis(k, base, skip_axes, [&](const AxisSpec& axis, const Params& at_max) {
    // This axis times each other sized axis, when this one is sized too (the other stays at
    // `base` along this axis).
    const bool is_sized = std::find(sized.begin(), sized.end(), axis.name) != sized.end();
    std::vector<std::string> partners;
    if (is_sized)
      for (const std::string& other : sized)
        if (other != axis.name) partners.push_back(other);
    auto sizes_at = [&](const Params& p) {
      std::vector<CallSize> sizes = call_sizes(k, variant, p, limits);
      const auto mine = int_value(p, axis.name);
      if (is_sized && mine) sizes.push_back({"axis " + axis.name, *mine});  // an 8-bit expert id, say
      for (const std::string& other : partners)
        if (const auto theirs = int_value(p, other); mine && theirs)
          sizes.push_back({"axes " + std::min(axis.name, other) + "*" + std::max(axis.name, other),
                           saturating_mul(*mine, *theirs)});
      return sizes;
    };
    // The sizes by name as at the axis maximum (the largest call); one property per size and
    // threshold. A size missing at some value (a buffer that is not always there) reads as 0.
    std::vector<std::string> names;
    for (const CallSize& s : sizes_at(at_max)) names.push_back(s.name);
    const std::size_t n_thresholds = std::size(kSizeThresholds);
    const auto changes = axis_changes(k, base, axis, [&](const Params& p) {
      const auto sizes = sizes_at(p);
      std::vector<bool> s(names.size() * n_thresholds, false);
      for (std::size_t i = 0; i < names.size(); ++i)
        for (const CallSize& size : sizes)
          if (size.name == names[i])
            for (std::size_t t = 0; t < n_thresholds; ++t)
              s[i * n_thresholds + t] = width_applies(size.name, kSizeThresholds[t]) && size.value >= kSizeThresholds[t];
      return s;
    });
    // Where the call is refused on one side, its launches' sizes vanish there (a refused launch
    // runs nothing): that change is the model's boundary, planned as such, not a size crossing.
    auto runs_at = [&](std::int64_t v) {
      const auto p = valid_params_at(k, base, axis, v);
      if (!p) return false;
      const std::unique_ptr<BoundCase> bound = bind_case(k, *p, variant);
      const LaunchPlan plan = bound->plan(limits);
      return !plan.host_error && predict(plan, limits).accepted();
    };
    for (const AxisChange& c : changes) {
      if (!runs_at(c.at) || (c.at - axis.step >= axis.min && !runs_at(c.at - axis.step))) continue;
      const std::string& name = names[c.signal / n_thresholds];
      const std::string rule = "size:" + name + " >= " + threshold_text(kSizeThresholds[c.signal % n_thresholds]);
      ModelBoundary crossing{axis.name, name, c.at, rule, c.now};
      crossing.threshold = kSizeThresholds[c.signal % n_thresholds];
      // A narrow width is crossed at small shapes, by many sizes, from every start shape: its
      // cases are the last value below and the first at or above (the wrap holds from there on);
      // 2^31 and 2^32 keep two steps either side.
      if (kSizeThresholds[c.signal % n_thresholds] < (std::uint64_t{1} << 31)) crossing.before = 1, crossing.after = 0;
      out.push_back(std::move(crossing));
    }
  });
  return out;
}

}  // namespace gridfuzz
