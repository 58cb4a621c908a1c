#pragma once
// Errors from the CUDA driver, carrying the code, its name and what was being done (for a
// launch: the geometry), so a failure is never blamed on an unrelated call.
#include <cuda.h>

#include <stdexcept>
#include <string>

namespace gridfuzz::device {

// "CUDA_ERROR_INVALID_VALUE"; works without a driver for the codes we know.
std::string error_name(CUresult code);

class CudaError : public std::runtime_error {
 public:
  CudaError(CUresult code, const std::string& what_was_done);
  CUresult code() const { return code_; }

 private:
  CUresult code_;
};

// No driver, or no device: the environment, not the code under test (exit code 3 in the CLI).
class NoDeviceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws CudaError when code != CUDA_SUCCESS.
void check(CUresult code, const std::string& what_was_done);

}  // namespace gridfuzz::device
