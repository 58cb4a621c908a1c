#pragma once
// The limits a launch is judged against: read from a device (device layer) or a named preset for
// static analysis of a GPU that is not present.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gridfuzz {

struct DeviceLimits {
  std::string name;                        // device name or "preset:sm_90"
  int cc_major = 0, cc_minor = 0;
  std::uint64_t max_grid_x = 0, max_grid_y = 0, max_grid_z = 0;
  std::uint64_t max_block_x = 0, max_block_y = 0, max_block_z = 0;
  std::uint64_t max_threads_per_block = 0;
  std::uint64_t regs_per_block = 0;        // 32-bit registers available to one block
  std::uint64_t smem_per_block = 0;        // default dynamic+static limit (48 KiB everywhere so far)
  std::uint64_t smem_per_block_optin = 0;  // limit once the function opts in
  std::uint64_t sm_count = 0;
  std::uint64_t l2_bytes = 0;
  std::uint64_t total_mem_bytes = 0;
  std::uint64_t warp_size = 32;
  // Register allocation: registers are given to a warp in units of this many (256 on every
  // architecture since sm_50; CUDA occupancy calculator, "register allocation unit size").
  std::uint64_t reg_alloc_unit = 256;
  // A block's warps are spread over the SM's 4 register-file partitions, so the register need
  // is counted in groups of this many warps ("warp allocation granularity").
  std::uint64_t warp_alloc_granularity = 4;
  bool from_preset = false;

  std::string cc() const { return std::to_string(cc_major) + "." + std::to_string(cc_minor); }
  friend bool operator==(const DeviceLimits&, const DeviceLimits&) = default;
};

// Presets: sm_75, sm_80, sm_86, sm_89, sm_90, sm_100, sm_120.
std::optional<DeviceLimits> device_preset(const std::string& name);
std::vector<std::string> device_preset_names();

}  // namespace gridfuzz
