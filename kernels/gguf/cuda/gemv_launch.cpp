#include "gemv_launch.hpp"

#include <stdexcept>

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

}  // namespace gridfuzz::gguf
