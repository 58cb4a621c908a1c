#include "gemv_launch.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include "gridfuzz/device/cuda_error.hpp"
#include "gridfuzz/device/driver_api.hpp"

#include "gemv_functions.hpp"

namespace gridfuzz::gguf {

GemvArgs gemv_args(const MoeCallShape& s, const void* weights, const int* q8, void* dst, const int* ids) {
  GemvArgs a;
  a.weights = static_cast<const std::uint8_t*>(weights);
  a.act = q8;
  a.dst = dst;
  a.ids = s.dense ? nullptr : ids;
  a.nrows = s.rows;
  a.blocks_per_row = s.blocks_per_row();
  a.token_stride = s.token_stride();
  a.top_k = s.kernel_top_k();
  // The top_k axis stops at 64; anything else could not be divided by the 32-bit divider.
  if (a.top_k == 0 || a.top_k > 0xFFFFFFFFull) throw std::invalid_argument("gemv_args: top_k must be in [1, 2^32)");
  a.top_k_div = U32Divider::of(static_cast<std::uint32_t>(a.top_k));
  return a;
}

void launch_gemv(GemvGeometry g, const MoeCallShape& s, GemvArgs args, const DeviceLimits& limits,
                 device::Launcher& launcher, CUstream stream, bool checked,
                 std::optional<GemvIndexWidth> force_width) {
  g = resolve(g, s);
  if (g == GemvGeometry::by_expert) throw std::invalid_argument("launch_gemv: by_expert needs its scratch (launch_gemv_by_expert)");
  const GemvKernelFamily family = g == GemvGeometry::legacy    ? GemvKernelFamily::legacy
                                  : g == GemvGeometry::pairs_x ? GemvKernelFamily::tiled_pairs_x
                                                               : GemvKernelFamily::tiled_rows_x;
  // The 32-bit instantiation exactly when the plan proved every index of it fits (and declared
  // them uint32): the same function decides both, so plan and launch cannot disagree.
  const GemvIndexWidth proven = gemv_index_width(s);
  if (force_width == GemvIndexWidth::bits32 && proven == GemvIndexWidth::bits64)
    throw std::invalid_argument("launch_gemv: an index of this shape does not fit the 32-bit kernel");
  const device::Function& fn = gemv_function(family, force_width.value_or(proven), s.quant, s.dtype);
  for (const GemvLaunch& l : gemv_launches(g, s, limits)) {
    GemvArgs a = args;
    a.pair_offset = l.pair_offset;
    a.row_offset = l.row_offset;
    a.pairs_on_z = l.pairs_on_z ? 1 : 0;
    void* params[] = {&a};
    if (checked) launcher.launch_checked(fn, l.spec, params, stream);
    else launcher.launch(fn, l.spec, params, stream);
  }
}

namespace {

GemvIndexWidth checked_width(const MoeCallShape& s, std::optional<GemvIndexWidth> force_width, const char* who) {
  const GemvIndexWidth proven = gemv_index_width(s);
  if (force_width == GemvIndexWidth::bits32 && proven == GemvIndexWidth::bits64)
    throw std::invalid_argument(std::string(who) + ": an index of this shape does not fit the 32-bit kernel");
  return force_width.value_or(proven);
}

std::string shape_text(const MoeCallShape& s) {
  return "tokens=" + std::to_string(s.tokens) + " top_k=" + std::to_string(s.top_k) +
         " experts=" + std::to_string(s.experts) + " rows=" + std::to_string(s.rows) + " cols=" + std::to_string(s.cols);
}

}  // namespace

void launch_gemv_by_expert(const MoeCallShape& s, GemvArgs args, CUdeviceptr scratch, std::uint64_t scratch_bytes,
                           const DeviceLimits& limits, device::Launcher& launcher, CUstream stream,
                           std::optional<GemvIndexWidth> force_width) {
  const GemvIndexWidth width = checked_width(s, force_width, "launch_gemv_by_expert");
  const ExpertGroupLayout layout = expert_group_layout(s, width);
  if (scratch == 0 || scratch_bytes < layout.bytes)
    throw std::invalid_argument("launch_gemv_by_expert: scratch of " + std::to_string(scratch_bytes) + " bytes < " +
                                std::to_string(layout.bytes) + " needed (" + shape_text(s) + ")");
  const std::vector<LaunchSpec> pre = expert_group_launches(GemvGeometry::by_expert, s);  // throws for a bad shape
  ExpertGroupArgs g;
  g.ids = args.ids;
  g.pairs = s.pairs();
  g.experts = s.experts;
  const auto at = [scratch](std::uint64_t offset) { return reinterpret_cast<void*>(static_cast<std::uintptr_t>(scratch + offset)); };
  g.counts = static_cast<unsigned long long*>(at(layout.counts));
  g.offsets = static_cast<unsigned long long*>(at(layout.offsets));
  g.cursor = static_cast<unsigned long long*>(at(layout.cursor));
  g.used = static_cast<std::uint32_t*>(at(layout.used));
  g.n_used = static_cast<std::uint32_t*>(at(layout.n_used));
  g.list = at(layout.list);
  const bool one_block = expert_group_one_block(s);
  if (!one_block)
    device::check(device::driver().cuMemsetD8Async(scratch + layout.counts, 0, s.experts * 8, stream),
                  "by_expert: zeroing " + std::to_string(s.experts) + " expert counts (" + shape_text(s) + ")");
  const std::vector<ExpertGroupStep> steps =
      one_block ? std::vector{ExpertGroupStep::one_block}
                : std::vector{ExpertGroupStep::count, ExpertGroupStep::scan, ExpertGroupStep::scatter};
  if (steps.size() != pre.size()) throw std::logic_error("launch_gemv_by_expert: the plan's pre-pass is not the launcher's");
  for (std::size_t i = 0; i < pre.size(); ++i) {
    void* params[] = {&g};
    launcher.launch_checked(expert_group_function(steps[i], width), pre[i], params, stream);
  }
  const device::Function& fn = gemv_function(GemvKernelFamily::by_expert, width, s.quant, s.dtype);
  for (const GemvLaunch& l : gemv_launches(GemvGeometry::by_expert, s, limits)) {
    GemvArgs a = args;
    a.row_offset = l.row_offset;
    ExpertGroupArgs gl = g;
    gl.expert_slot_offset = l.expert_slot_offset;
    void* params[] = {&a, &gl};
    launcher.launch_checked(fn, l.spec, params, stream);
  }
}

}  // namespace gridfuzz::gguf
