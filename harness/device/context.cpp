#include "gridfuzz/device/context.hpp"

#include <cuda_runtime_api.h>

#include "gridfuzz/device/cuda_error.hpp"
#include "gridfuzz/device/device.hpp"
#include "gridfuzz/device/driver_api.hpp"

namespace gridfuzz::device {

PrimaryContext::PrimaryContext(int ordinal) : ordinal_(ordinal) {
  (void)query_limits(ordinal);  // clear NoDeviceError for a missing driver or ordinal
  check(driver().cuDeviceGet(&dev_, ordinal), "cuDeviceGet");
  check(driver().cuDevicePrimaryCtxRetain(&ctx_, dev_), "cuDevicePrimaryCtxRetain");
  make_current();
  // The runtime binds to the same primary context for this device.
  if (cudaSetDevice(ordinal) != cudaSuccess) {
    cudaGetLastError();
    throw CudaError(CUDA_ERROR_INVALID_DEVICE, "cudaSetDevice(" + std::to_string(ordinal) + ")");
  }
}

PrimaryContext::~PrimaryContext() {
  if (ctx_) driver().cuDevicePrimaryCtxRelease(dev_);
}

void PrimaryContext::make_current() const { check(driver().cuCtxSetCurrent(ctx_), "cuCtxSetCurrent"); }

void PrimaryContext::synchronize() const { check(driver().cuCtxSynchronize(), "cuCtxSynchronize"); }

}  // namespace gridfuzz::device
