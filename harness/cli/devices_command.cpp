// `gridfuzz devices`: the GPUs the driver sees, or why there are none; and the presets. With
// --ctest-resource-spec FILE it also writes the CTest resource spec for those GPUs.
#include <fstream>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "ctest_resource_spec.hpp"
#include "gridfuzz/device/device.hpp"
#include "gridfuzz/device/driver_api.hpp"
#include "parse.hpp"

namespace gridfuzz::cli {

Runner add_devices_command(CLI::App& app, const GlobalOptions&) {
  auto spec_path = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("devices", "list CUDA devices and the device presets for static analysis");
  cmd->add_option("--ctest-resource-spec", *spec_path,
                  "also write a CTest resource spec with one slot per GPU to this file "
                  "(ctest --resource-spec-file FILE -j N runs GPU tests on every GPU, one test per GPU)");
  return [spec_path]() -> int {
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
    if (!spec_path->empty()) {
      std::ofstream out(*spec_path, std::ios::trunc);
      out << ctest_resource_spec(static_cast<int>(devices.size()));
      out.close();
      if (!out) throw UsageError("--ctest-resource-spec: cannot write '" + *spec_path + "'");
      std::cout << "CTest resource spec (" << devices.size() << " GPU slot(s)): " << *spec_path << "\n";
    }
    return kOk;
  };
}

}  // namespace gridfuzz::cli
