#include "gridfuzz/core/limit_probes.hpp"

#include <stdexcept>

#include "gridfuzz/predictor.hpp"

namespace gridfuzz {
namespace {

// The values limit-2 .. limit+2 that are >= lowest.
std::vector<std::uint64_t> around(std::uint64_t limit, std::uint64_t lowest = 1) {
  std::vector<std::uint64_t> v;
  for (std::uint64_t d = 0; d <= 4; ++d) {
    if (limit + d < 2) continue;
    const std::uint64_t x = limit + d - 2;
    if (x >= lowest) v.push_back(x);
  }
  return v;
}

// A block of exactly `threads` threads with x and y inside their limits (x*y == threads).
Dim3 block_of(std::uint64_t threads, const DeviceLimits& lim) {
  for (std::uint64_t y = 1; y <= lim.max_block_y; ++y)
    if (threads % y == 0 && threads / y <= lim.max_block_x && y > 1) return {threads / y, y, 1};
  return {threads, 1, 1};
}

const ProbeKernelInfo& find(const std::vector<ProbeKernelInfo>& kernels, ProbeKernel kind) {
  for (const auto& k : kernels)
    if (k.kind == kind) return k;
  throw std::invalid_argument("limit_probes: a probe kernel of every kind is needed");
}

LaunchSpec spec(const ProbeKernelInfo& k, Dim3 grid, Dim3 block, std::uint64_t smem = 0, bool optin = false) {
  LaunchSpec s;
  s.name = k.name;
  s.grid = grid;
  s.block = block;
  s.dynamic_smem_bytes = smem;
  s.smem_optin = optin;
  s.func = k.attrs;
  return s;
}

}  // namespace

std::uint64_t max_threads_for_regs(std::uint64_t regs, const DeviceLimits& lim) {
  std::uint64_t best = 0;
  for (std::uint64_t t = lim.warp_size; t <= lim.max_threads_per_block; t += lim.warp_size)
    if (registers_per_block(regs, t, lim) <= lim.regs_per_block) best = t;
  return best;
}

std::vector<LimitProbe> limit_probes(const DeviceLimits& lim, const std::vector<ProbeKernelInfo>& kernels) {
  const ProbeKernelInfo& trivial = find(kernels, ProbeKernel::trivial);
  const ProbeKernelInfo& with_static = find(kernels, ProbeKernel::static_smem);
  const Dim3 warp{lim.warp_size, 1, 1};
  const Dim3 one{1, 1, 1};  // grid probes launch up to 2^31 blocks: keep each block tiny
  std::vector<LimitProbe> out;
  auto add = [&](std::string boundary, const ProbeKernelInfo& k, LaunchSpec s) {
    out.push_back({std::move(boundary), k, std::move(s)});
  };

  add("grid.zero", trivial, spec(trivial, {0, 1, 1}, one));
  add("grid.zero", trivial, spec(trivial, {1, 0, 1}, one));
  add("grid.zero", trivial, spec(trivial, {1, 1, 0}, one));
  add("grid.zero", trivial, spec(trivial, {1, 1, 1}, one));
  for (auto x : around(lim.max_grid_x)) add("grid.x", trivial, spec(trivial, {x, 1, 1}, one));
  for (auto y : around(lim.max_grid_y)) add("grid.y", trivial, spec(trivial, {1, y, 1}, one));
  for (auto z : around(lim.max_grid_z)) add("grid.z", trivial, spec(trivial, {1, 1, z}, one));
  for (auto x : around(lim.max_block_x)) add("block.x", trivial, spec(trivial, {1, 1, 1}, {x, 1, 1}));
  for (auto y : around(lim.max_block_y)) add("block.y", trivial, spec(trivial, {1, 1, 1}, {1, y, 1}));
  for (auto z : around(lim.max_block_z)) add("block.z", trivial, spec(trivial, {1, 1, 1}, {1, 1, z}));
  for (auto t : around(lim.max_threads_per_block))
    add("block.threads", trivial, spec(trivial, {1, 1, 1}, block_of(t, lim)));
  // Dynamic shared memory, without and with the static part (dynamic + static is what counts).
  for (const ProbeKernelInfo* k : {&trivial, &with_static}) {
    const std::uint64_t st = k->attrs.static_smem_bytes;
    for (auto total : around(lim.smem_per_block, st))
      add("smem.default", *k, spec(*k, {1, 1, 1}, warp, total - st, false));
    for (auto total : around(lim.smem_per_block_optin, st))
      add("smem.optin", *k, spec(*k, {1, 1, 1}, warp, total - st, true));
  }
  for (const auto& k : kernels) {
    if (k.kind != ProbeKernel::regs || k.attrs.num_regs <= 0) continue;
    const std::uint64_t best = max_threads_for_regs(static_cast<std::uint64_t>(k.attrs.num_regs), lim);
    for (std::uint64_t t : {best - lim.warp_size, best, best + lim.warp_size})
      if (t >= lim.warp_size && t <= lim.max_threads_per_block)
        add("regs", k, spec(k, {1, 1, 1}, {t, 1, 1}));
  }
  return out;
}

std::vector<ProbeKernelInfo> assumed_probe_kernels() {
  std::vector<ProbeKernelInfo> k;
  k.push_back({ProbeKernel::trivial, "probe_trivial", {8, 0, 1024}});
  k.push_back({ProbeKernel::static_smem, "probe_static_smem", {8, 4096, 1024}});
  for (int regs : {64, 72, 80, 96, 128, 168, 255})
    k.push_back({ProbeKernel::regs, "probe_regs_" + std::to_string(regs) + "(assumed)", {regs, 0, 1024}});
  return k;
}

}  // namespace gridfuzz
