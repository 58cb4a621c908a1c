#include "gridfuzz/device/driver_api.hpp"

#include <cuda_runtime_api.h>

#include <mutex>

#include "gridfuzz/device/cuda_error.hpp"

namespace gridfuzz::device {
namespace {

struct Loaded {
  DriverApi api;
  std::string error;  // empty when usable
};

const Loaded& load() {
  static const Loaded loaded = [] {
    Loaded l;
    auto resolve = [&](const char* name, unsigned version, void** slot) {
      if (!l.error.empty()) return;
      cudaDriverEntryPointQueryResult status{};
      const cudaError_t rc = cudaGetDriverEntryPointByVersion(name, slot, version, cudaEnableDefault, &status);
      if (rc != cudaSuccess || status != cudaDriverEntryPointSuccess || *slot == nullptr) {
        l.error = std::string("CUDA driver not usable (") + cudaGetErrorName(rc) +
                  " resolving " + name + ")";
        cudaGetLastError();  // leave nothing pending in the runtime
      }
    };
#define GRIDFUZZ_RESOLVE_DRIVER_FN(fn, version) resolve(#fn, version, reinterpret_cast<void**>(&l.api.fn));
    GRIDFUZZ_DRIVER_FUNCTIONS(GRIDFUZZ_RESOLVE_DRIVER_FN)
#undef GRIDFUZZ_RESOLVE_DRIVER_FN
    if (l.error.empty()) {
      const CUresult rc = l.api.cuInit(0);
      if (rc != CUDA_SUCCESS) {
        const char* name = nullptr;
        l.api.cuGetErrorName(rc, &name);
        l.error = std::string("cuInit failed: ") + (name ? name : "?");
      }
    }
    return l;
  }();
  return loaded;
}

}  // namespace

const DriverApi& driver() {
  const Loaded& l = load();
  if (!l.error.empty()) throw NoDeviceError("no CUDA device: " + l.error);
  return l.api;
}

bool driver_available(std::string* why) {
  const Loaded& l = load();
  if (why) *why = l.error;
  return l.error.empty();
}

}  // namespace gridfuzz::device
