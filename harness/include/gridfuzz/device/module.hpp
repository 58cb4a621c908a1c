#pragma once
// A cubin/fatbin/PTX image loaded through the driver (external kernels).
#include <cuda.h>

#include <string>

#include "gridfuzz/device/handle.hpp"

namespace gridfuzz::device {

void release_module(CUmodule m);

class Module {
 public:
  explicit Module(const void* image);  // throws CudaError
  CUmodule get() const { return h_.get(); }

 private:
  Handle<CUmodule, release_module> h_;
};

}  // namespace gridfuzz::device
