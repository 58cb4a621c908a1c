// The probe list puts launches on both sides of every limit, for every preset.
#include <gtest/gtest.h>

#include <map>

#include "gridfuzz/core/limit_probes.hpp"
#include "gridfuzz/predictor.hpp"

using namespace gridfuzz;

TEST(LimitProbes, EveryBoundaryHasAnAcceptedAndARefusedProbe) {
  for (const auto& name : device_preset_names()) {
    const DeviceLimits lim = *device_preset(name);
    std::map<std::string, std::pair<int, int>> seen;  // boundary -> (accepted, refused)
    for (const auto& p : limit_probes(lim, assumed_probe_kernels())) {
      const bool ok = predict_launch(p.launch, lim).accepted;
      (ok ? seen[p.boundary].first : seen[p.boundary].second)++;
    }
    for (const char* b : {"grid.zero", "grid.x", "grid.y", "grid.z", "block.x", "block.y", "block.z",
                          "block.threads", "smem.default", "smem.optin", "regs"}) {
      EXPECT_GT(seen[b].first, 0) << name << " " << b << " has no accepted probe";
      EXPECT_GT(seen[b].second, 0) << name << " " << b << " has no refused probe";
    }
  }
}

TEST(LimitProbes, ProbesSitWithinTwoOfEachLimit) {
  const DeviceLimits lim = *device_preset("sm_90");
  for (const auto& p : limit_probes(lim, assumed_probe_kernels())) {
    if (p.boundary == "grid.z") {
      EXPECT_GE(p.launch.grid.z, 65533u);
      EXPECT_LE(p.launch.grid.z, 65537u);
    }
    if (p.boundary == "block.threads") {
      const auto t = p.launch.block.x * p.launch.block.y * p.launch.block.z;
      EXPECT_GE(t, 1022u);
      EXPECT_LE(t, 1026u);
      EXPECT_LE(p.launch.block.x, lim.max_block_x);  // the threads rule, not block.x, decides
    }
    if (p.boundary == "smem.default") {
      const auto total = p.launch.dynamic_smem_bytes + p.launch.func.static_smem_bytes;
      EXPECT_GE(total, 49150u);
      EXPECT_LE(total, 49154u);
    }
  }
}

TEST(LimitProbes, NeedsEveryProbeKernelKind) {
  EXPECT_THROW(limit_probes(*device_preset("sm_90"), {}), std::invalid_argument);
}
