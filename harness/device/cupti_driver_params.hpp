#pragma once
// The geometry of a driver launch from the parameters CUPTI hands a driver-API callback
// (generated_cuda_meta.h). Its own translation unit: that header needs cuda.h's internal API
// versions (__CUDA_API_VERSION_INTERNAL), which the rest of gridfuzz must not see.
#include <cuda.h>

#include <cstdint>

#include "gridfuzz/launch_spec.hpp"

namespace gridfuzz::device {

struct DriverLaunchParams {
  bool known = false;  // false for a callback id that is not a launch
  Dim3 grid, block;
  std::uint64_t dynamic_smem_bytes = 0;
  CUfunction function = nullptr;
};

// `cbid` is a CUPTI_DRIVER_TRACE_CBID_* of a launch function, `params` its functionParams.
DriverLaunchParams driver_launch_params(std::uint32_t cbid, const void* params);

}  // namespace gridfuzz::device
