#include "gridfuzz/device/launcher.hpp"

#include <cuda_runtime_api.h>

#include <cstdint>

#include "gridfuzz/device/cuda_error.hpp"
#include "gridfuzz/device/driver_api.hpp"

namespace gridfuzz::device {
namespace {

bool fits_u32(const Dim3& d) { return d.x <= UINT32_MAX && d.y <= UINT32_MAX && d.z <= UINT32_MAX; }

}  // namespace

std::string LaunchRecord::describe() const {
  return (ok() ? std::string("accepted: ") : error + ": ") + gridfuzz::describe(spec);
}

LaunchError::LaunchError(const LaunchRecord& r)
    : std::runtime_error("launch refused, " + r.describe()), record_(r) {}

const LaunchRecord& Launcher::launch(const Function& fn, LaunchSpec spec, void** args, CUstream stream) {
  LaunchRecord rec;
  spec.func = fn.attributes();
  if (spec.name.empty()) spec.name = fn.name();
  rec.spec = spec;

  CUresult rc = CUDA_SUCCESS;
  if (!fits_u32(spec.grid) || !fits_u32(spec.block) || spec.dynamic_smem_bytes > UINT32_MAX) {
    rec.code = CUDA_ERROR_INVALID_VALUE;
    rec.error = "GRIDFUZZ_EXTENT_OVER_32_BITS";
    records_.push_back(rec);
    return records_.back();
  }
  // Every launch states its own shared-memory ceiling, so an earlier opt-in of the same function
  // cannot make a later non-opt-in launch pass.
  rc = fn.set_max_dynamic_smem(spec.smem_optin ? spec.dynamic_smem_bytes
                                                : static_cast<std::uint64_t>(fn.default_max_dynamic_smem()));
  if (rc == CUDA_SUCCESS) {
    rc = driver().cuLaunchKernel(fn.get(), static_cast<unsigned>(spec.grid.x), static_cast<unsigned>(spec.grid.y),
                                 static_cast<unsigned>(spec.grid.z), static_cast<unsigned>(spec.block.x),
                                 static_cast<unsigned>(spec.block.y), static_cast<unsigned>(spec.block.z),
                                 static_cast<unsigned>(spec.dynamic_smem_bytes), stream, args, nullptr);
  }
  // The runtime keeps its own last-error slot; clear it so no error is left pending anywhere.
  cudaGetLastError();
  rec.code = rc;
  if (rc != CUDA_SUCCESS) rec.error = error_name(rc);
  records_.push_back(rec);
  return records_.back();
}

const LaunchRecord& Launcher::launch_checked(const Function& fn, LaunchSpec spec, void** args, CUstream stream) {
  const LaunchRecord& rec = launch(fn, std::move(spec), args, stream);
  if (!rec.ok()) throw LaunchError(rec);
  return rec;
}

}  // namespace gridfuzz::device
