#pragma once
// The geometry model: will the driver accept a launch, and do the kernels' indices fit their
// types. Pure host code, exact in 64-bit/128-bit arithmetic; no GPU needed.
#include <optional>
#include <string>
#include <vector>

#include "gridfuzz/device_limits.hpp"
#include "gridfuzz/index_range.hpp"
#include "gridfuzz/launch_plan.hpp"
#include "gridfuzz/launch_spec.hpp"

namespace gridfuzz {

// Launch rules, checked in this order; the first violated one is reported.
enum class Rule {
  grid_zero, grid_x, grid_y, grid_z,
  block_x, block_y, block_z, block_threads,
  smem_default, smem_optin, regs,
};

std::string to_string(Rule r);                      // "grid.zero", "smem.optin", ...
std::optional<Rule> parse_rule(const std::string& s);

struct LaunchVerdict {
  bool accepted = true;
  std::optional<Rule> rule;     // set when refused
  std::string detail;           // e.g. "grid.z 65536 > 65535"
  std::string outcome() const;  // "accept" or "refuse:<rule>"
};

// Registers one block of `threads` threads needs at `regs_per_thread`, rounded the way the
// hardware allocates them (per warp, in units of limits.reg_alloc_unit).
std::uint64_t registers_per_block(std::uint64_t regs_per_thread, std::uint64_t threads,
                                  const DeviceLimits& limits);

LaunchVerdict predict_launch(const LaunchSpec& launch, const DeviceLimits& limits);

struct Prediction {
  std::string outcome;                 // accept | refuse:<rule> | host-error:<what>
  std::string detail;                  // human-readable reason for the first refusal
  std::optional<std::size_t> refused_launch;  // index into plan.launches
  std::vector<LaunchVerdict> launches;
  std::vector<IndexVerdict> indices;
  std::string index_wrap() const;      // "safe" or "wrap:<name>" (first wrapping index)
  bool accepted() const { return outcome == "accept"; }
  // The index closest to (or furthest past) its type's limit; null when the plan declares none.
  const IndexVerdict* riskiest_index() const;
};

Prediction predict(const LaunchPlan& plan, const DeviceLimits& limits);

}  // namespace gridfuzz
