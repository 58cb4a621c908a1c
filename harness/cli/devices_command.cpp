// `gridfuzz devices`: the GPUs the driver sees, or why there are none; and the presets.
#include <iostream>

#include "commands.hpp"
#include "gridfuzz/device/device.hpp"
#include "gridfuzz/device/driver_api.hpp"

namespace gridfuzz::cli {

Runner add_devices_command(CLI::App& app, const GlobalOptions&) {
  app.add_subcommand("devices", "list CUDA devices and the device presets for static analysis");
  return []() -> int {
    const auto devices = device::list_devices();
    if (devices.empty()) {
      std::string why;
      device::driver_available(&why);
      std::cout << "no CUDA device" << (why.empty() ? "" : ": " + why) << "\n";
    }
    for (const auto& d : devices)
      std::cout << d.ordinal << ": " << d.name << "  cc " << d.cc << "  " << (d.total_mem_bytes >> 20)
                << " MiB  driver CUDA " << device::driver_version() << "\n";
    std::cout << "presets:";
    for (const auto& n : device_preset_names()) std::cout << " " << n;
    std::cout << "\n";
    return kOk;
  };
}

}  // namespace gridfuzz::cli
