#include "gemv_launch.hpp"

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
  return a;
}

void launch_gemv(GemvGeometry g, const MoeCallShape& s, GemvArgs args, const DeviceLimits& limits,
                 device::Launcher& launcher, CUstream stream, bool checked) {
  g = resolve(g, s);
  const GemvKernelFamily family = g == GemvGeometry::legacy    ? GemvKernelFamily::legacy
                                  : g == GemvGeometry::pairs_x ? GemvKernelFamily::wide_pairs_x
                                                               : GemvKernelFamily::wide_rows_x;
  const device::Function& fn = gemv_function(family, s.quant, s.dtype);
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
