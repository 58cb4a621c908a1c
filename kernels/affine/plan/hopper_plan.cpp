#include "gridfuzz/affine/hopper_plan.hpp"

#include <algorithm>
#include <climits>
#include <utility>

#include "gridfuzz/affine/qmm_small_plan.hpp"
#include "gridfuzz/affine/qmv_stream_plan.hpp"
#include "gridfuzz/checked_math.hpp"
#include "hopper_qmm.hpp"

namespace gridfuzz::affine {

bool hopper_path_built() { return hopper_qmm_compiled(); }

std::optional<std::string> hopper_ineligible(const MatmulShape& s, const DeviceLimits& limits, bool built) {
  if (!built) return "the sm_90a CUTLASS kernel is not in this build";
  if (limits.cc_major != 9 || limits.cc_minor != 0) return "device is sm_" + std::to_string(limits.cc_major) +
                                                           std::to_string(limits.cc_minor) + ", the kernel is sm_90a";
  if (s.gather) return "gather calls take the mma.sync path";
  if (s.bits != 4) return "bits " + std::to_string(s.bits) + " (compiled for 4)";
  if (s.dtype != Dtype::bfloat16) return "dtype " + to_string(s.dtype) + " (compiled for bf16)";
  // CUTLASS's can_implement (sm90_mma_tma_gmma_rs_warpspecialized_mixed_input.hpp): group_size a
  // multiple of the tile's K (or K itself); TMA rows of 16 bytes: K a multiple of 32 (4-bit A) and
  // of 8 (bf16 B), N a multiple of 8 (bf16 out columns and the N-major scales).
  if (s.group_size % kHopperTileK != 0)
    return "group_size " + std::to_string(s.group_size) + " is not a multiple of the tile K 64";
  if (s.k % kHopperTileK != 0) return "cols " + std::to_string(s.k) + " is not a multiple of 64";
  if (s.n % 8 != 0) return "output columns " + std::to_string(s.n) + " are not a multiple of 8";
  // CUTLASS's problem shape is Shape<int,int,int,int>.
  if (s.m > INT32_MAX || s.n > INT32_MAX || s.k > INT32_MAX) return "a dimension exceeds int (CUTLASS's problem shape)";
  if (s.m == 0) return "no tokens";
  if (limits.sm_count == 0 || limits.sm_count > INT32_MAX) return "the device's SM count is unknown";
  if (const std::uint64_t need = hopper_tile(s.m, s.n, limits.sm_count).smem_bytes; limits.smem_per_block_optin < need)
    return "the device's opt-in shared memory " + std::to_string(limits.smem_per_block_optin) + " B is below the " +
           std::to_string(need) + " B the kernel needs";
  return std::nullopt;
}

// CUTLASS 4.4 PersistentTileSchedulerSm90Params::get_grid_shape (cutlass/gemm/kernel/
// tile_scheduler_params.h:212-307) with cluster 1x1, max_swizzle_size 1 (the default: log swizzle
// 0 at line 226, no rounding of the tile counts) and raster order AlongM (hopper_qmm.cu sets it;
// get_rasterization_order, lines 331-345), truncated by the problem size (lines 247-253, 259-266):
//   grid (min(sm_count, tiles_m * tiles_n), 1, 1).
Dim3 hopper_grid(std::uint64_t tiles_m, std::uint64_t tiles_n, std::uint64_t sm_count) {
  return {std::min(sm_count, tiles_m * tiles_n), 1, 1};
}

namespace {

// A small-M kernel's plan as the hopper route's: which kernel took it, and why not the GEMM.
HopperPlan routed_to(AffinePlan p, bool HopperPlan::*kernel, std::string why_not) {
  HopperPlan h;
  h.*kernel = true;
  h.why_not = std::move(why_not);
  h.plan = std::move(p.plan);
  h.launches = std::move(p.launches);
  return h;
}

}  // namespace

HopperPlan plan_hopper(const MatmulShape& s, const DeviceLimits& limits, bool built) {
  if (s.m >= kQmmSmallMinTokens && !qmm_small_ineligible(s, limits))
    return routed_to(plan_qmm_small(s, limits), &HopperPlan::small_qmm, "2 to 64 tokens with 4-bit weights run qmm_small");
  if (!qmv_stream_ineligible(s, limits))
    return routed_to(plan_qmv_stream(s, limits), &HopperPlan::stream_qmv,
                     "fewer than 8 tokens with 4-bit weights run qmv_stream");
  return plan_hopper_gemm(s, limits, built);
}

HopperPlan plan_hopper_gemm(const MatmulShape& s, const DeviceLimits& limits, bool built) {
  HopperPlan h;
  if (auto why = hopper_ineligible(s, limits, built)) {
    h.why_not = *why;
    h.plan = plan_matmul(s, Variant::fixed, limits).plan;
    return h;
  }
  h.hopper = true;
  // CUTLASS's M' is the weight rows (N), its N' the tokens (swap trick, hopper_qmm.cu).
  const HopperTile tile = hopper_tile(s.m, s.n, limits.sm_count);
  const std::uint64_t tiles_m = ceil_div(s.n, kHopperTileM), tiles_n = ceil_div(s.m, tile.tokens);
  LaunchSpec spec;
  spec.name = "qmm_sm90a_cutlass";
  spec.grid = hopper_grid(tiles_m, tiles_n, limits.sm_count);
  spec.block = {kHopperThreads, 1, 1};
  spec.dynamic_smem_bytes = tile.smem_bytes;
  spec.smem_optin = true;
  h.plan.launches.push_back(spec);
  // CUTLASS forms tile and element coordinates in int (problem shape, scheduler's linear tile
  // index); the TMA unit forms the addresses with 64-bit strides.
  const u128 tiles = u128{tiles_m} * tiles_n;
  h.plan.indices = {
      {"token_coord", u128{s.m} - 1, IndexType::int32, "elements"},
      {"col_coord", u128{s.n} - 1, IndexType::int32, "elements"},
      {"k_coord", u128{s.k} - 1, IndexType::int32, "elements"},
      {"tile_index", tiles - 1, IndexType::int32, "elements"},
      {"out_offset", u128{s.m} * s.n - 1, IndexType::int64, "elements"},
      {"x_offset", u128{s.m} * s.k - 1, IndexType::int64, "elements"},
      {"w_offset", u128{s.n} * s.words_per_row() - 1, IndexType::int64, "words"},
      {"scale_offset", u128{s.n} * s.groups_per_row() - 1, IndexType::int64, "elements"},
  };
  return h;
}

HopperPlan plan_hopper(const MatmulShape& s, const DeviceLimits& limits) {
  return plan_hopper(s, limits, hopper_path_built());
}

HopperPlan plan_hopper_gemm(const MatmulShape& s, const DeviceLimits& limits) {
  return plan_hopper_gemm(s, limits, hopper_path_built());
}

}  // namespace gridfuzz::affine
