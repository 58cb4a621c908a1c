// Only this file sees cuda.h's internal API versions (see cupti_driver_params.hpp).
#define __CUDA_API_VERSION_INTERNAL 1
#include <cuda.h>
#include <cupti_driver_cbid.h>
#include <generated_cuda_meta.h>

#include "cupti_driver_params.hpp"

namespace gridfuzz::device {
namespace {

// cuLaunchKernel's and cuLaunchCooperativeKernel's parameters (the same fields).
template <class Params>
DriverLaunchParams from_kernel_params(const void* params) {
  const auto* p = static_cast<const Params*>(params);
  return {true, {p->gridDimX, p->gridDimY, p->gridDimZ}, {p->blockDimX, p->blockDimY, p->blockDimZ},
          p->sharedMemBytes, p->f};
}

}  // namespace

DriverLaunchParams driver_launch_params(std::uint32_t cbid, const void* params) {
  DriverLaunchParams out;
  switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
      out = from_kernel_params<cuLaunchKernel_params>(params);
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
      out = from_kernel_params<cuLaunchCooperativeKernel_params>(params);
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
      const auto* p = static_cast<const cuLaunchKernelEx_params*>(params);
      out.known = true;
      out.function = p->f;
      if (const CUlaunchConfig* c = p->config) {
        out.grid = {c->gridDimX, c->gridDimY, c->gridDimZ};
        out.block = {c->blockDimX, c->blockDimY, c->blockDimZ};
        out.dynamic_smem_bytes = c->sharedMemBytes;
      }
      break;
    }
    default: break;
  }
  return out;
}

}  // namespace gridfuzz::device
