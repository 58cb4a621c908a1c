#pragma once
// The device's primary context, shared with the CUDA runtime, so kernels compiled with nvcc
// (runtime API) and modules loaded through the driver live in one context.
#include <cuda.h>

namespace gridfuzz::device {

class PrimaryContext {
 public:
  explicit PrimaryContext(int ordinal);  // retains and makes current; throws NoDeviceError/CudaError
  ~PrimaryContext();
  PrimaryContext(const PrimaryContext&) = delete;
  PrimaryContext& operator=(const PrimaryContext&) = delete;

  int ordinal() const { return ordinal_; }
  CUcontext get() const { return ctx_; }
  void make_current() const;
  // Waits for all work; a sticky fault (illegal address) surfaces here as CudaError.
  void synchronize() const;

 private:
  int ordinal_;
  CUdevice dev_{};
  CUcontext ctx_{};
};

}  // namespace gridfuzz::device
