#pragma once
// The CUDA Driver API, resolved at run time through the (statically linked) CUDA runtime.
//
// Why not link libcuda directly: a binary linked against libcuda.so.1 cannot even start on a
// machine without the NVIDIA driver (CI, laptops), so the CPU tests and static analysis would be
// unreachable. cudaGetDriverEntryPointByVersion loads the driver lazily and reports its absence
// as an error code, which we turn into "no device: <reason>".
#include <cuda.h>
#include <cudaTypedefs.h>

#include <string>

namespace gridfuzz::device {

// Each entry names the ABI version we call (cudaTypedefs.h PFN_<name>_v<version>). Versions are
// pinned because a newer ABI can change a signature under the same name (CUDA 13's
// cuCtxSynchronize takes a context), and the runtime hands out whatever version is asked for.
#define GRIDFUZZ_DRIVER_FUNCTIONS(X)  \
  X(cuInit, 2000)                     \
  X(cuDriverGetVersion, 2020)         \
  X(cuGetErrorName, 6000)             \
  X(cuGetErrorString, 6000)           \
  X(cuDeviceGetCount, 2000)           \
  X(cuDeviceGet, 2000)                \
  X(cuDeviceGetName, 2000)            \
  X(cuDeviceGetAttribute, 2000)       \
  X(cuDeviceTotalMem, 3020)           \
  X(cuDevicePrimaryCtxRetain, 7000)   \
  X(cuDevicePrimaryCtxRelease, 11000) \
  X(cuCtxSetCurrent, 4000)            \
  X(cuCtxSynchronize, 2000)           \
  X(cuStreamCreate, 2000)             \
  X(cuStreamDestroy, 4000)            \
  X(cuStreamSynchronize, 2000)        \
  X(cuEventCreate, 2000)              \
  X(cuEventDestroy, 4000)             \
  X(cuEventRecord, 2000)              \
  X(cuEventSynchronize, 2000)         \
  X(cuEventElapsedTime, 12080)        \
  X(cuMemAlloc, 3020)                 \
  X(cuMemFree, 3020)                  \
  X(cuMemGetInfo, 3020)               \
  X(cuMemcpyHtoD, 3020)               \
  X(cuMemcpyDtoH, 3020)               \
  X(cuMemsetD8, 3020)                 \
  X(cuMemsetD8Async, 3020)            \
  X(cuMemsetD16, 3020)                \
  X(cuMemsetD32, 3020)                \
  X(cuModuleLoadData, 2000)           \
  X(cuModuleUnload, 2000)             \
  X(cuModuleGetFunction, 2000)        \
  X(cuFuncGetAttribute, 2020)         \
  X(cuFuncSetAttribute, 9000)         \
  X(cuLaunchKernel, 4000)

struct DriverApi {
#define GRIDFUZZ_DECLARE_DRIVER_FN(fn, version) PFN_##fn##_v##version fn = nullptr;
  GRIDFUZZ_DRIVER_FUNCTIONS(GRIDFUZZ_DECLARE_DRIVER_FN)
#undef GRIDFUZZ_DECLARE_DRIVER_FN
};

// Loads the entry points and calls cuInit once. Throws NoDeviceError when the driver is absent or
// reports no device.
const DriverApi& driver();

// True when driver() would succeed; otherwise `why` says what is missing. Never throws.
bool driver_available(std::string* why = nullptr);

}  // namespace gridfuzz::device
