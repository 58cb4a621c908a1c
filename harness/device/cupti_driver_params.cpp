// Only this file sees cuda.h's internal API versions (see cupti_driver_params.hpp).
#define __CUDA_API_VERSION_INTERNAL 1
#include <cuda.h>
#include <cupti_driver_cbid.h>
#include <generated_cuda_meta.h>

#include "cupti_driver_params.hpp"

namespace gridfuzz::device {

DriverLaunchParams driver_launch_params(std::uint32_t cbid, const void* params) {
  DriverLaunchParams out;
  switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz: {
      const auto* p = static_cast<const cuLaunchKernel_params*>(params);
      out = {true, {p->gridDimX, p->gridDimY, p->gridDimZ}, {p->blockDimX, p->blockDimY, p->blockDimZ},
             p->sharedMemBytes, p->f};
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz: {
      const auto* p = static_cast<const cuLaunchCooperativeKernel_params*>(params);
      out = {true, {p->gridDimX, p->gridDimY, p->gridDimZ}, {p->blockDimX, p->blockDimY, p->blockDimZ},
             p->sharedMemBytes, p->f};
      break;
    }
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
