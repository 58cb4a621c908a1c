#include "gridfuzz/device/cuda_error.hpp"

#include "gridfuzz/device/driver_api.hpp"

namespace gridfuzz::device {

std::string error_name(CUresult code) {
  if (driver_available()) {
    const char* name = nullptr;
    if (driver().cuGetErrorName(code, &name) == CUDA_SUCCESS && name != nullptr) return name;
  }
  switch (code) {
    case CUDA_SUCCESS: return "CUDA_SUCCESS";
    case CUDA_ERROR_INVALID_VALUE: return "CUDA_ERROR_INVALID_VALUE";
    case CUDA_ERROR_OUT_OF_MEMORY: return "CUDA_ERROR_OUT_OF_MEMORY";
    case CUDA_ERROR_NO_DEVICE: return "CUDA_ERROR_NO_DEVICE";
    case CUDA_ERROR_ILLEGAL_ADDRESS: return "CUDA_ERROR_ILLEGAL_ADDRESS";
    case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: return "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
    default: return "CUDA_ERROR_" + std::to_string(static_cast<int>(code));
  }
}

CudaError::CudaError(CUresult code, const std::string& what_was_done)
    : std::runtime_error(error_name(code) + " (" + std::to_string(static_cast<int>(code)) +
                         ") in " + what_was_done),
      code_(code) {}

void check(CUresult code, const std::string& what_was_done) {
  if (code != CUDA_SUCCESS) throw CudaError(code, what_was_done);
}

}  // namespace gridfuzz::device
