#pragma once
// Host side of the q8_1 activation quantizer: issues the launches of one geometry
// (launch_geometry.hpp) through a device::Launcher.
#include <cuda.h>

#include <cstdint>

#include "gridfuzz/device/launcher.hpp"
#include "gridfuzz/device_limits.hpp"
#include "launch_geometry.hpp"

namespace gridfuzz::gguf {

// Quantizes `rows` rows of `cols` floats at x into q8_1 rows of q8_1_row_stride_int32(cols) words
// at q8. `checked`: throw device::LaunchError on a refused launch (fixed); otherwise go on as
// upstream does (the record still shows the refusal). one_launch/upstream_tiles use the int32
// kernel with upstream's int host offsets; tiles_64 the 32-bit kernel below 2^32 indices
// (quantize_fits_uint32), else the 64-bit one.
void launch_quantize_q8_1(QuantizeGeometry g, const float* x, int* q8, std::uint64_t rows, std::uint64_t cols,
                          const DeviceLimits& limits, device::Launcher& launcher, CUstream stream, bool checked);

}  // namespace gridfuzz::gguf
