#include "gridfuzz/predictor.hpp"

#include "gridfuzz/checked_math.hpp"
#include "gridfuzz/core/vocabulary.hpp"

namespace gridfuzz {
namespace {

LaunchVerdict refuse(Rule r, std::uint64_t value, std::uint64_t limit) {
  LaunchVerdict v;
  v.accepted = false;
  v.rule = r;
  v.detail = to_string(r) + " " + std::to_string(value) + " > " + std::to_string(limit);
  return v;
}

}  // namespace

// The words are the vocabulary's (core/vocabulary.cpp), as are to_string(Rule) and parse_rule.
std::string LaunchVerdict::outcome() const { return predicted_outcome(*this).to_string(); }

std::uint64_t registers_per_block(std::uint64_t regs_per_thread, std::uint64_t threads,
                                  const DeviceLimits& limits) {
  const std::uint64_t warps = ceil_div(threads, limits.warp_size);
  const std::uint64_t warp_groups = ceil_div(warps, limits.warp_alloc_granularity);
  const std::uint64_t regs_per_warp =
      ceil_div(regs_per_thread * limits.warp_size, limits.reg_alloc_unit) * limits.reg_alloc_unit;
  return warp_groups * limits.warp_alloc_granularity * regs_per_warp;
}

LaunchVerdict predict_launch(const LaunchSpec& l, const DeviceLimits& lim) {
  const Dim3& g = l.grid;
  if (g.x == 0 || g.y == 0 || g.z == 0) {
    LaunchVerdict v;
    v.accepted = false;
    v.rule = Rule::grid_zero;
    v.detail = "grid.zero (" + to_string(g) + ")";
    return v;
  }
  if (g.x > lim.max_grid_x) return refuse(Rule::grid_x, g.x, lim.max_grid_x);
  if (g.y > lim.max_grid_y) return refuse(Rule::grid_y, g.y, lim.max_grid_y);
  if (g.z > lim.max_grid_z) return refuse(Rule::grid_z, g.z, lim.max_grid_z);

  const Dim3& b = l.block;
  // A zero block extent is refused by the driver like an oversized one; report it on that axis.
  if (b.x == 0 || b.x > lim.max_block_x) return refuse(Rule::block_x, b.x, lim.max_block_x);
  if (b.y == 0 || b.y > lim.max_block_y) return refuse(Rule::block_y, b.y, lim.max_block_y);
  if (b.z == 0 || b.z > lim.max_block_z) return refuse(Rule::block_z, b.z, lim.max_block_z);
  // Each extent is now <= its (small) limit, so the product cannot overflow 64 bits.
  const std::uint64_t threads = b.x * b.y * b.z;
  if (threads > lim.max_threads_per_block)
    return refuse(Rule::block_threads, threads, lim.max_threads_per_block);

  const auto smem = checked_add(l.func.static_smem_bytes, l.dynamic_smem_bytes);
  const std::uint64_t smem_total = smem.value_or(UINT64_MAX);
  if (!l.smem_optin && smem_total > lim.smem_per_block)
    return refuse(Rule::smem_default, smem_total, lim.smem_per_block);
  if (l.smem_optin && smem_total > lim.smem_per_block_optin)
    return refuse(Rule::smem_optin, smem_total, lim.smem_per_block_optin);

  if (l.func.num_regs > 0) {
    const std::uint64_t need =
        registers_per_block(static_cast<std::uint64_t>(l.func.num_regs), threads, lim);
    if (need > lim.regs_per_block) return refuse(Rule::regs, need, lim.regs_per_block);
  }
  return LaunchVerdict{};
}

std::string Prediction::index_wrap() const { return index_wrap_of(*this).to_string(); }

const IndexVerdict* Prediction::riskiest_index() const {
  const IndexVerdict* best = nullptr;
  double best_ratio = -1;
  for (const auto& iv : indices) {
    const double ratio = static_cast<double>(iv.max_value) / static_cast<double>(iv.limit);
    if (ratio > best_ratio) {
      best_ratio = ratio;
      best = &iv;
    }
  }
  return best;
}

Prediction predict(const LaunchPlan& plan, const DeviceLimits& limits) {
  Prediction p;
  for (const auto& r : plan.indices) p.indices.push_back(check_index(r));
  // A host-computed argument narrowed to its declared type wraps like an index does.
  for (const auto& a : plan.host_arguments) p.indices.push_back(check_index({"arg:" + a.name, a.value, a.type, "value"}));
  if (plan.host_error) {
    p.outcome = PredictedOutcome::host_error(*plan.host_error).to_string();
    p.detail = "host code fails before launching: " + *plan.host_error;
    return p;
  }
  p.outcome = PredictedOutcome::accept().to_string();
  for (std::size_t i = 0; i < plan.launches.size(); ++i) {
    p.launches.push_back(predict_launch(plan.launches[i], limits));
    if (!p.launches.back().accepted && !p.refused_launch) {
      p.refused_launch = i;
      p.outcome = p.launches.back().outcome();
      p.detail = p.launches.back().detail + " in " + describe(plan.launches[i]);
    }
  }
  return p;
}

}  // namespace gridfuzz
