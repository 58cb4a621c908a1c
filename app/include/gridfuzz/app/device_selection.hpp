#pragma once
// Which limits a command judges against: a named preset, a given device, or device 0 when one
// exists (else the sm_90 preset, said out loud).
#include <optional>
#include <string>

#include "gridfuzz/device_limits.hpp"

namespace gridfuzz::app {

struct DeviceChoice {
  std::optional<int> device;            // --device N
  std::optional<std::string> preset;    // --device-preset NAME
};

struct SelectedLimits {
  DeviceLimits limits;
  bool on_device = false;   // limits were read from a real GPU
  int ordinal = -1;         // which one, when on_device
  std::string note;         // e.g. "no CUDA device (...); static analysis with preset sm_90"
};

// Throws UsageError (unknown preset, both given) or NoDeviceError (--device N not present).
SelectedLimits select_limits(const DeviceChoice& choice);

}  // namespace gridfuzz::app
