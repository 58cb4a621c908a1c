#pragma once
// Host side of moe_vec / mmvq: issues the launches of one geometry through a device::Launcher.
#include <cuda.h>

#include <optional>

#include "gemv_args.hpp"
#include "gridfuzz/device/launcher.hpp"
#include "launch_geometry.hpp"

namespace gridfuzz::gguf {

// `args` carries the buffers and the shape (nrows, blocks_per_row, token_stride, top_k, ids);
// pair/row offsets and the pair axis come from each launch of gemv_launches(g, s, limits).
// `checked`: throw device::LaunchError on a refusal (every variant but legacy).
// `force_width`: production calls leave it empty (gemv_index_width decides). The benchmark sets
// bits64 to time and cross-check the 64-bit kernel at shapes small enough for one GPU, where both
// instantiations are legal; bits32 where the plan says bits64 is refused (std::invalid_argument).
void launch_gemv(GemvGeometry g, const MoeCallShape& s, GemvArgs args, const DeviceLimits& limits,
                 device::Launcher& launcher, CUstream stream, bool checked,
                 std::optional<GemvIndexWidth> force_width = std::nullopt);

// by_expert (docs/KERNELS.md, "Ours: by_expert"): zeroes the counts of `scratch` (cuMemsetD8Async,
// checked), then the pre-pass (expert_group_launches) and the GEMV (gemv_launches), every launch
// checked. `scratch` is at least expert_group_layout(s, width).bytes of device memory, with
// width = force_width or gemv_index_width(s); the call owns it until the stream has run it.
// Throws std::invalid_argument when it is smaller, and as launch_gemv for force_width.
void launch_gemv_by_expert(const MoeCallShape& s, GemvArgs args, CUdeviceptr scratch, std::uint64_t scratch_bytes,
                           const DeviceLimits& limits, device::Launcher& launcher, CUstream stream,
                           std::optional<GemvIndexWidth> force_width = std::nullopt);

// The kernel arguments of shape s over the given buffers (offsets zero).
GemvArgs gemv_args(const MoeCallShape& s, const void* weights, const int* q8, void* dst, const int* ids);

}  // namespace gridfuzz::gguf
