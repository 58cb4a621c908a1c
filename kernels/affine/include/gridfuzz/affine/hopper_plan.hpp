#pragma once
// Planning of affine.qmm's "hopper" variant (pure C++, no GPU): 2 to 64 tokens with 4-bit weights
// run qmm_small where it can (qmm_small_plan.hpp, sm_80 on); else fewer than 8 tokens with 4-bit
// weights run qmv_stream (qmv_stream_plan.hpp, sm_80 on); otherwise, when CUTLASS's sm90
// mixed-input GEMM (kernels/affine/cuda/hopper_qmm.cu) can run the call, the one launch it makes;
// otherwise the fixed path (qmv or mma.sync), with the fixed plan.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gridfuzz/affine/matmul_plan.hpp"
#include "gridfuzz/device_limits.hpp"
#include "gridfuzz/launch_plan.hpp"

namespace gridfuzz::affine {

// The compiled configurations; hopper_qmm.cu static_asserts each against CUTLASS's GemmKernel.
inline constexpr int kHopperTileM = 128;   // weight rows (out columns) per tile: CUTLASS's M'
inline constexpr int kHopperTileK = 64;    // K per stage; the group size must be a multiple
inline constexpr int kHopperThreads = 384; // one producer and two consumer warpgroups

// The token tile (CUTLASS's N') and the shared memory that goes with it (GemmKernel::SharedStorageSize).
struct HopperTile {
  int tokens;
  std::uint64_t smem_bytes;
};
inline constexpr HopperTile kHopperNarrowTile{128, 207872};
inline constexpr HopperTile kHopperWideTile{256, 205824};
// The wide tile feeds each weight tile, dequantized in registers, to twice the tokens, which halves
// the conversion work per MMA; but it makes half as many tiles, and the persistent grid runs them in
// waves of one tile per SM. On an H100 (evidence/2026-12-07-h100-kernels-33): at 8192 x 14336 x 4096
// the narrow tile took 2.00 ms, the wide 1.60 (cuBLAS bf16 1.43), so a wide tile costs about 1.6
// narrow ones; at 4096 x 4096 and 256-512 tokens, one wave either way, the wide tile was slower
// (46.9 against 34.4 us at 256 tokens). So: the wide tile from 129 tokens on where its waves, at
// 8/5 of a narrow wave each, are fewer than the narrow tile's waves.
inline constexpr std::uint64_t kHopperWideMinTokens = 129;
inline constexpr std::uint64_t kHopperWideWaveCost5ths = 8;  // a wide wave in fifths of a narrow one

// The tile a call of `tokens` tokens over `weight_rows` rows runs with on `sm_count` SMs
// (hopper_qmm.cu launches the kernel built for it). 64-bit counts; sm_count 0 gives the narrow tile.
constexpr HopperTile hopper_tile(std::uint64_t tokens, std::uint64_t weight_rows, std::uint64_t sm_count) {
  if (tokens < kHopperWideMinTokens || sm_count == 0) return kHopperNarrowTile;
  const auto ceil_div = [](std::uint64_t a, std::uint64_t b) { return a / b + (a % b != 0); };
  const std::uint64_t tiles_m = ceil_div(weight_rows, kHopperTileM);
  const std::uint64_t narrow_waves = ceil_div(tiles_m * ceil_div(tokens, kHopperNarrowTile.tokens), sm_count);
  const std::uint64_t wide_waves = ceil_div(tiles_m * ceil_div(tokens, kHopperWideTile.tokens), sm_count);
  return kHopperWideWaveCost5ths * wide_waves < 5 * narrow_waves ? kHopperWideTile : kHopperNarrowTile;
}

// Whether this build has the sm_90a kernel (CUTLASS headers found, sm_90a compiled).
bool hopper_path_built();

// Why the Hopper kernel cannot run this call on `limits`' device, or nullopt when it can.
std::optional<std::string> hopper_ineligible(const MatmulShape& s, const DeviceLimits& limits, bool built);

// CUTLASS's persistent grid for tiles_m x tiles_n tiles on sm_count SMs (cluster 1x1, swizzle 1,
// raster along M').
Dim3 hopper_grid(std::uint64_t tiles_m, std::uint64_t tiles_n, std::uint64_t sm_count);

struct HopperPlan {
  bool small_qmm = false;   // true: qmm_small's launches (in `launches`)
  bool stream_qmv = false;  // true: qmv_stream's launches (in `launches`)
  bool hopper = false;      // true: one CUTLASS launch; both false: the fixed plan's launches
  std::string why_not;      // when !hopper: why not CUTLASS (qmv_stream, or hopper_ineligible's reason)
  LaunchPlan plan;
  std::vector<AffineLaunch> launches;  // when small_qmm or stream_qmv: the same launches, with kernel arguments
};
HopperPlan plan_hopper(const MatmulShape& s, const DeviceLimits& limits, bool built);
HopperPlan plan_hopper(const MatmulShape& s, const DeviceLimits& limits);  // built = hopper_path_built()
// The same without the qmm_small and qmv_stream rules: CUTLASS when eligible, else the fixed plan (the split
// reference of a CUTLASS call plans its token chunks with it, whatever their size).
HopperPlan plan_hopper_gemm(const MatmulShape& s, const DeviceLimits& limits, bool built);
HopperPlan plan_hopper_gemm(const MatmulShape& s, const DeviceLimits& limits);

}  // namespace gridfuzz::affine
