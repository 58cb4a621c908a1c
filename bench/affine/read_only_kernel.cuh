#pragma once
// The device's read bandwidth, measured on the bytes a kernel under test reads: a kernel that only
// loads (16-byte loads, four in flight per thread, grid-stride) and folds what it read into a value
// it stores only when it cannot be skipped. A device-to-device copy would move every byte twice
// (read and write), so its rate is not the read limit.
#include <cuda.h>

#include <cstdint>

namespace gridfuzz::bench {

// Reads `bytes` (a multiple of 16) at `src` once, with `blocks` blocks of `threads` threads, on
// `stream`; `sink` is a device word the kernel may write. Throws device::CudaError on a refused
// launch, with the geometry.
void launch_read_only(CUdeviceptr src, std::uint64_t bytes, CUdeviceptr sink, unsigned blocks, unsigned threads,
                      CUstream stream);

}  // namespace gridfuzz::bench
