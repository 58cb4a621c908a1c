// Turns one planned launch into kernel arguments and issues it through the Launcher.
#include <cstdint>

#include "gridfuzz/affine/device_ops.hpp"
#include "kernel_args.hpp"
#include "kernel_functions.hpp"

namespace gridfuzz::affine {
namespace {

template <class P>
P* at(CUdeviceptr base, std::uint64_t element_offset) {
  return base ? reinterpret_cast<P*>(static_cast<std::uintptr_t>(base)) + element_offset : nullptr;
}

}  // namespace

const device::LaunchRecord& launch_planned(const AffineLaunch& launch, const MatmulShape& shape,
                                           const MatmulBuffers& b, device::Launcher& launcher, CUstream stream,
                                           bool checked) {
  // Chunk offsets in 64-bit: a dense row chunk moves x and out by whole rows; a gather pair chunk
  // moves out by whole slices and the index arrays by pairs (index values stay absolute).
  const std::uint64_t x_offset = launch.row_begin * shape.k;
  const std::uint64_t out_offset = launch.row_begin * shape.n + launch.batch_begin * shape.m * shape.n;
  MatmulArgs args;
  args.x = at<const std::uint16_t>(b.x, x_offset);
  args.w = at<const std::uint32_t>(b.w, 0);
  args.scales = at<const std::uint16_t>(b.scales, 0);
  args.biases = at<const std::uint16_t>(b.biases, 0);
  args.lhs = at<const std::uint32_t>(b.lhs, launch.batch_begin);
  args.rhs = at<const std::uint32_t>(b.rhs, launch.batch_begin);
  args.out = at<std::uint16_t>(b.out, out_offset);
  args.m = launch.m;
  args.n = launch.n;
  args.k = launch.k;
  args.group_size = shape.group_size;
  void* params[] = {&args};
  const device::Function& fn =
      launch.small                   ? qmm_small_function(shape.dtype, launch.token_tiles, launch.k_parts, launch.wide_index)
      : launch.path == MatmulPath::qmm ? qmm_function(shape.dtype, shape.bits, launch.tile_m, launch.tile_k, launch.wide_index)
      : launch.stream                ? qmv_stream_function(shape.dtype, launch.wide_index)
                                     : qmv_function(shape.dtype, shape.bits, launch.wide_index);
  return checked ? launcher.launch_checked(fn, launch.spec, params, stream) : launcher.launch(fn, launch.spec, params, stream);
}

}  // namespace gridfuzz::affine
