#include "gridfuzz/app/device_selection.hpp"

#include "gridfuzz/device/device.hpp"
#include "gridfuzz/device/driver_api.hpp"
#include "gridfuzz/app/parse.hpp"

namespace gridfuzz::app {

SelectedLimits select_limits(const DeviceChoice& choice) {
  SelectedLimits s;
  if (choice.preset && choice.device)
    throw UsageError("--device and --device-preset exclude each other");
  if (choice.preset) {
    auto p = device_preset(*choice.preset);
    if (!p) {
      std::string names;
      for (const auto& n : device_preset_names()) names += (names.empty() ? "" : ", ") + n;
      throw UsageError("--device-preset: unknown preset '" + *choice.preset + "' (known: " + names + ")");
    }
    s.limits = *p;
    return s;
  }
  if (choice.device) {
    s.limits = device::query_limits(*choice.device);  // NoDeviceError when absent
    s.on_device = true;
    s.ordinal = *choice.device;
    return s;
  }
  if (device::device_count() > 0) {
    s.limits = device::query_limits(0);
    s.on_device = true;
    s.ordinal = 0;
    return s;
  }
  std::string why;
  device::driver_available(&why);
  s.limits = *device_preset("sm_90");
  s.note = "no CUDA device" + (why.empty() ? std::string() : " (" + why + ")") +
           "; static analysis with preset sm_90";
  return s;
}

}  // namespace gridfuzz::app
