#include "gridfuzz/search/size_crossings.hpp"

#include <algorithm>

#include "gridfuzz/checked_math.hpp"

namespace gridfuzz {
namespace {

std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) { return checked_mul(a, b).value_or(UINT64_MAX); }

std::string threshold_text(std::uint64_t t) { return t == (std::uint64_t{1} << 31) ? "2^31" : "2^32"; }

}  // namespace

std::vector<CallSize> call_sizes(const Kernel& k, const std::string& variant, const Params& p,
                                 const DeviceLimits& limits) {
  std::vector<CallSize> out;
  const std::unique_ptr<BoundCase> bound = k.bind(p, variant);
  for (const BufferSpec& b : bound->buffers()) {
    out.push_back({"buffer " + b.name + " elements", b.elements});
    out.push_back({"buffer " + b.name + " bytes", saturating_mul(b.elements, element_bytes(b.type))});
  }
  std::uint64_t total = 0, per_dim[3] = {0, 0, 0};
  for (const LaunchSpec& l : bound->plan(limits).launches) {
    const std::uint64_t x = saturating_mul(l.grid.x, l.block.x), y = saturating_mul(l.grid.y, l.block.y),
                        z = saturating_mul(l.grid.z, l.block.z);
    total = std::max(total, saturating_mul(saturating_mul(x, y), z));
    per_dim[0] = std::max(per_dim[0], x);
    per_dim[1] = std::max(per_dim[1], y);
    per_dim[2] = std::max(per_dim[2], z);
  }
  out.push_back({"launch threads", total});
  out.push_back({"launch threads.x", per_dim[0]});
  out.push_back({"launch threads.y", per_dim[1]});
  out.push_back({"launch threads.z", per_dim[2]});
  return out;
}

std::vector<ModelBoundary> size_crossings(const Kernel& k, const std::string& variant, const Params& base,
                                          const DeviceLimits& limits,
                                          const std::set<std::string>& skip_axes) {
  std::vector<ModelBoundary> out;
  for (const AxisSpec& axis : k.axes()) {
    if (axis.is_choice() || skip_axes.contains(axis.name)) continue;
    const auto at_max = valid_params_at(k, base, axis, axis.max);
    if (!at_max) continue;
    // The sizes by name as at the axis maximum (the largest call); one property per size and
    // threshold. A size missing at some value (a buffer that is not always there) reads as 0.
    std::vector<std::string> names;
    for (const CallSize& s : call_sizes(k, variant, *at_max, limits)) names.push_back(s.name);
    const std::size_t n_thresholds = std::size(kSizeThresholds);
    const auto changes = axis_changes(k, base, axis, [&](const Params& p) {
      const auto sizes = call_sizes(k, variant, p, limits);
      std::vector<bool> s(names.size() * n_thresholds, false);
      for (std::size_t i = 0; i < names.size(); ++i)
        for (const CallSize& size : sizes)
          if (size.name == names[i])
            for (std::size_t t = 0; t < n_thresholds; ++t) s[i * n_thresholds + t] = size.value >= kSizeThresholds[t];
      return s;
    });
    for (const AxisChange& c : changes) {
      const std::string& name = names[c.signal / n_thresholds];
      const std::string rule = "size:" + name + " >= " + threshold_text(kSizeThresholds[c.signal % n_thresholds]);
      out.push_back({axis.name, name, c.at, rule, c.now});
    }
  }
  return out;
}

}  // namespace gridfuzz
