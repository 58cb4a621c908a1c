#include "gridfuzz/device/device.hpp"

#include "gridfuzz/device/cuda_error.hpp"
#include "gridfuzz/device/driver_api.hpp"

namespace gridfuzz::device {
namespace {

CUdevice get_device(int ordinal) {
  CUdevice dev{};
  check(driver().cuDeviceGet(&dev, ordinal), "cuDeviceGet(" + std::to_string(ordinal) + ")");
  return dev;
}

std::uint64_t attribute(CUdevice dev, CUdevice_attribute attr, const char* what) {
  int value = 0;
  check(driver().cuDeviceGetAttribute(&value, attr, dev), std::string("cuDeviceGetAttribute(") + what + ")");
  return static_cast<std::uint64_t>(value);
}

std::string device_name(CUdevice dev) {
  char name[256] = {};
  check(driver().cuDeviceGetName(name, sizeof(name), dev), "cuDeviceGetName");
  return name;
}

}  // namespace

int device_count() {
  if (!driver_available()) return 0;
  int n = 0;
  if (driver().cuDeviceGetCount(&n) != CUDA_SUCCESS) return 0;
  return n;
}

std::vector<DeviceInfo> list_devices() {
  std::vector<DeviceInfo> out;
  for (int i = 0; i < device_count(); ++i) {
    const DeviceLimits lim = query_limits(i);
    out.push_back({i, lim.name, lim.cc(), lim.total_mem_bytes});
  }
  return out;
}

DeviceLimits query_limits(int ordinal) {
  const int n = device_count();
  if (n == 0) {
    std::string why;
    driver_available(&why);
    throw NoDeviceError("no CUDA device" + (why.empty() ? std::string() : ": " + why));
  }
  if (ordinal < 0 || ordinal >= n)
    throw NoDeviceError("device " + std::to_string(ordinal) + " does not exist (" +
                        std::to_string(n) + " present)");
  const CUdevice dev = get_device(ordinal);
  DeviceLimits l;
#define GRIDFUZZ_ATTR(field, attr) l.field = attribute(dev, attr, #attr)
  GRIDFUZZ_ATTR(max_grid_x, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
  GRIDFUZZ_ATTR(max_grid_y, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y);
  GRIDFUZZ_ATTR(max_grid_z, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z);
  GRIDFUZZ_ATTR(max_block_x, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X);
  GRIDFUZZ_ATTR(max_block_y, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y);
  GRIDFUZZ_ATTR(max_block_z, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z);
  GRIDFUZZ_ATTR(max_threads_per_block, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  GRIDFUZZ_ATTR(regs_per_block, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
  GRIDFUZZ_ATTR(smem_per_block, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
  GRIDFUZZ_ATTR(smem_per_block_optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  GRIDFUZZ_ATTR(sm_count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  GRIDFUZZ_ATTR(l2_bytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
  GRIDFUZZ_ATTR(warp_size, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
#undef GRIDFUZZ_ATTR
  l.cc_major = static_cast<int>(attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, "cc major"));
  l.cc_minor = static_cast<int>(attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, "cc minor"));
  size_t bytes = 0;
  check(driver().cuDeviceTotalMem(&bytes, dev), "cuDeviceTotalMem");
  l.total_mem_bytes = bytes;
  l.name = device_name(dev);
  return l;
}

std::string driver_version() {
  if (!driver_available()) return "";
  int v = 0;
  if (driver().cuDriverGetVersion(&v) != CUDA_SUCCESS) return "";
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

}  // namespace gridfuzz::device
