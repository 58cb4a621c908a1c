#include "gridfuzz/watch/launch_headroom.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>

#include "gridfuzz/checked_math.hpp"

namespace gridfuzz::watch {
namespace {

bool has_zero(const Dim3& d) { return d.x == 0 || d.y == 0 || d.z == 0; }

Dim3 max_of(const Dim3& a, const Dim3& b) { return {std::max(a.x, b.x), std::max(a.y, b.y), std::max(a.z, b.z)}; }

// The quantities of one launch against each limit, in the predictor's order.
std::vector<LimitUse> uses_of(const LaunchSpec& s, const DeviceLimits& lim) {
  // Block extents beyond their limits are refused before their product is formed; saturate.
  const std::uint64_t threads = checked_mul(checked_mul(s.block.x, s.block.y).value_or(UINT64_MAX), s.block.z)
                                    .value_or(UINT64_MAX);
  const std::uint64_t smem = checked_add(s.func.static_smem_bytes, s.dynamic_smem_bytes).value_or(UINT64_MAX);
  const std::uint64_t regs =
      s.func.num_regs > 0 && threads <= lim.max_threads_per_block
          ? registers_per_block(static_cast<std::uint64_t>(s.func.num_regs), threads, lim)
          : 0;
  return {
      {Rule::grid_x, s.grid.x, lim.max_grid_x},
      {Rule::grid_y, s.grid.y, lim.max_grid_y},
      {Rule::grid_z, s.grid.z, lim.max_grid_z},
      {Rule::block_x, s.block.x, lim.max_block_x},
      {Rule::block_y, s.block.y, lim.max_block_y},
      {Rule::block_z, s.block.z, lim.max_block_z},
      {Rule::block_threads, threads, lim.max_threads_per_block},
      s.smem_optin ? LimitUse{Rule::smem_optin, smem, lim.smem_per_block_optin}
                   : LimitUse{Rule::smem_default, smem, lim.smem_per_block},
      {Rule::regs, regs, lim.regs_per_block},
  };
}

// Keeps, per rule, the use with the largest fraction (smem.default and smem.optin are one limit:
// shared memory).
void merge_uses(std::vector<LimitUse>& into, const std::vector<LimitUse>& more) {
  if (into.empty()) {
    into = more;
    return;
  }
  for (std::size_t i = 0; i < more.size(); ++i)
    if (more[i].fraction() > into[i].fraction()) into[i] = more[i];
}

std::string describe_launch(const WatchedLaunch& l) {
  if (!l.geometry_known) return "geometry not reported by the runtime";
  return "grid=(" + to_string(l.grid) + ") block=(" + to_string(l.block) + ") smem=" +
         std::to_string(l.static_smem_bytes + l.dynamic_smem_bytes);
}

bool ranks_before(const KernelHeadroom& a, const KernelHeadroom& b) {
  const bool a_bad = a.refused + a.zero_grids > 0, b_bad = b.refused + b.zero_grids > 0;
  if (a_bad != b_bad) return a_bad;
  const double fa = a.tightest ? a.tightest->fraction() : 0.0, fb = b.tightest ? b.tightest->fraction() : 0.0;
  if (fa != fb) return fa > fb;
  if (a.launches != b.launches) return a.launches > b.launches;
  return a.name < b.name;
}

}  // namespace

std::string LimitUse::describe() const {
  char percent[32];
  std::snprintf(percent, sizeof percent, "%.1f", 100.0 * fraction());
  return to_string(rule) + " " + std::to_string(value) + " of " + std::to_string(limit) + ": " + percent + " %";
}

std::string readable_kernel_name(const std::string& symbol) {
  if (symbol.empty()) return "(unnamed)";
  if (!symbol.starts_with("_Z")) return symbol;
  int status = 0;
  const std::unique_ptr<char, void (*)(void*)> demangled(
      abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status), std::free);
  if (status != 0 || !demangled) return symbol;
  std::string s = demangled.get();
  // The parameter list: the balanced (...) that ends the name.
  if (!s.empty() && s.back() == ')') {
    int depth = 0;
    for (std::size_t i = s.size(); i-- > 0;) {
      if (s[i] == ')') ++depth;
      else if (s[i] == '(' && --depth == 0) {
        s.erase(i);
        break;
      }
    }
  }
  if (s.starts_with("void ")) s.erase(0, 5);  // a kernel's return type
  return s;
}

LaunchSpec launch_spec_of(const WatchedLaunch& l, const DeviceLimits& limits) {
  LaunchSpec s;
  s.name = l.symbol;
  s.grid = l.grid;
  s.block = l.block;
  s.dynamic_smem_bytes = l.dynamic_smem_bytes;
  s.func.num_regs = l.regs;
  s.func.static_smem_bytes = l.static_smem_bytes;
  s.smem_optin = checked_add(l.static_smem_bytes, l.max_dynamic_smem_bytes).value_or(UINT64_MAX) > limits.smem_per_block;
  return s;
}

std::vector<KernelHeadroom> judge_launches(const std::vector<WatchedLaunch>& launches, const DeviceLimits& limits) {
  std::map<std::string, KernelHeadroom> by_symbol;
  for (const WatchedLaunch& l : launches) {
    KernelHeadroom& k = by_symbol[l.symbol];
    if (k.launches == 0) {
      k.symbol = l.symbol;
      k.name = readable_kernel_name(l.symbol);
    }
    k.launches += l.count;
    if (!l.accepted()) {
      k.refused += l.count;
      if (k.first_error.empty()) {
        k.first_error = l.error;
        k.first_refusal = describe_launch(l);
        if (l.geometry_known) {
          const LaunchVerdict v = predict_launch(launch_spec_of(l, limits), limits);
          k.first_refusal += ": model " + v.outcome() + (v.detail.empty() ? "" : " (" + v.detail + ")");
        }
      }
    }
    if (!l.geometry_known) continue;
    if (has_zero(l.grid)) k.zero_grids += l.count;
    const LaunchSpec spec = launch_spec_of(l, limits);
    if (predict_launch(spec, limits).accepted != l.accepted()) k.model_disagreements += l.count;
    k.max_grid = max_of(k.max_grid, l.grid);
    k.max_block = max_of(k.max_block, l.block);
    std::vector<LimitUse> uses = uses_of(spec, limits);
    k.max_threads = std::max(k.max_threads, uses[6].value);
    k.max_smem_bytes = std::max(k.max_smem_bytes, uses[7].value);
    k.max_regs = std::max(k.max_regs, l.regs);
    merge_uses(k.uses, uses);
  }
  std::vector<KernelHeadroom> out;
  for (auto& [symbol, k] : by_symbol) {
    for (const LimitUse& u : k.uses)
      if (!k.tightest || u.fraction() > k.tightest->fraction()) k.tightest = u;
    out.push_back(std::move(k));
  }
  std::stable_sort(out.begin(), out.end(), ranks_before);
  return out;
}

}  // namespace gridfuzz::watch
