#pragma once
// The GPUs the driver sees, and their launch limits read with cuDeviceGetAttribute.
#include <string>
#include <vector>

#include "gridfuzz/device_limits.hpp"

namespace gridfuzz::device {

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  std::string cc;            // "9.0"
  std::uint64_t total_mem_bytes = 0;
};

// 0 when there is no driver or no device (never throws).
int device_count();
std::vector<DeviceInfo> list_devices();

// Throws NoDeviceError / CudaError.
DeviceLimits query_limits(int ordinal);
std::string driver_version();  // "13.0" (driver's CUDA version), or "" without a driver

}  // namespace gridfuzz::device
