// Named device presets for static analysis without a GPU. The launch limits are the per-compute-
// capability values of the CUDA C++ Programming Guide ("Technical Specifications per Compute
// Capability"); SM count, L2 and memory are those of one representative part, named below, and
// only feed reports and memory budgets.
#include <array>

#include "gridfuzz/device_limits.hpp"

namespace gridfuzz {
namespace {

DeviceLimits common_limits(std::string name, int major, int minor) {
  DeviceLimits l;
  l.name = "preset:" + std::move(name);
  l.cc_major = major;
  l.cc_minor = minor;
  l.max_grid_x = 2147483647ULL;
  l.max_grid_y = 65535;
  l.max_grid_z = 65535;
  l.max_block_x = 1024;
  l.max_block_y = 1024;
  l.max_block_z = 64;
  l.max_threads_per_block = 1024;
  l.regs_per_block = 65536;
  l.smem_per_block = 49152;
  l.from_preset = true;
  return l;
}

constexpr std::uint64_t KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB;

struct PresetRow {
  const char* name;
  int major, minor;
  std::uint64_t smem_optin, sm_count, l2, mem;
};

// representative parts: T4, A100-80GB, RTX 3090, RTX 4090, H200, B200, RTX 5090
constexpr std::array<PresetRow, 7> kPresets{{
    {"sm_75", 7, 5, 65536, 40, 4 * MiB, 15 * GiB},
    {"sm_80", 8, 0, 166912, 108, 40 * MiB, 79 * GiB},
    {"sm_86", 8, 6, 101376, 82, 6 * MiB, 23 * GiB},
    {"sm_89", 8, 9, 101376, 128, 72 * MiB, 23 * GiB},
    {"sm_90", 9, 0, 232448, 132, 60 * MiB, 139 * GiB},  // L2 as read on an H200
    {"sm_100", 10, 0, 232448, 148, 126 * MiB, 178 * GiB},
    {"sm_120", 12, 0, 101376, 170, 96 * MiB, 31 * GiB},
}};

}  // namespace

std::optional<DeviceLimits> device_preset(const std::string& name) {
  for (const auto& row : kPresets) {
    if (name != row.name) continue;
    DeviceLimits l = common_limits(row.name, row.major, row.minor);
    l.smem_per_block_optin = row.smem_optin;
    l.sm_count = row.sm_count;
    l.l2_bytes = row.l2;
    l.total_mem_bytes = row.mem;
    return l;
  }
  return std::nullopt;
}

std::vector<std::string> device_preset_names() {
  std::vector<std::string> names;
  for (const auto& row : kPresets) names.emplace_back(row.name);
  return names;
}

}  // namespace gridfuzz
