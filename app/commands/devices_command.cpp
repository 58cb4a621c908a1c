// `gridfuzz devices`: the GPUs the driver sees, or why there are none; and the presets. With
// --ctest-resource-spec FILE it also writes the CTest resource spec for those GPUs. --json: one
// JSON object {"driver", "devices": [{"ordinal", "name", "cc", "memory_mib"}], "no_device",
// "presets", "ctest_resource_spec"}.
#include <iostream>
#include <memory>

#include "gridfuzz/app/commands.hpp"
#include "gridfuzz/app/ctest_resource_spec.hpp"
#include "gridfuzz/device/device.hpp"
#include "gridfuzz/device/driver_api.hpp"
#include "gridfuzz/app/json_writer.hpp"
#include "gridfuzz/app/parse.hpp"
#include "gridfuzz/core/output_file.hpp"

namespace gridfuzz::app {
namespace {

struct DevicesArgs {
  std::string spec_path;
  bool json = false;
};

}  // namespace

Runner add_devices_command(CLI::App& app, const GlobalOptions&) {
  auto a = std::make_shared<DevicesArgs>();
  auto* cmd = app.add_subcommand("devices", "list CUDA devices and the device presets for static analysis");
  cmd->add_option("--ctest-resource-spec", a->spec_path,
                  "also write a CTest resource spec with one slot per GPU to this file "
                  "(ctest --resource-spec-file FILE -j N runs GPU tests on every GPU, one test per GPU)");
  cmd->add_flag("--json", a->json, "print the devices and presets as one JSON object");
  return [a]() -> int {
    const auto devices = device::list_devices();
    std::string why;
    if (devices.empty()) device::driver_available(&why);
    const std::string driver = device::driver_version();
    if (!a->spec_path.empty())
      write_output_file(OutputFile{a->spec_path, "--ctest-resource-spec", "a CTest resource spec",
                                   is_gridfuzz_resource_spec, {}},
                        ctest_resource_spec(static_cast<int>(devices.size())));
    if (a->json) {
      JsonWriter j;
      j.begin_object();
      j.key("driver");
      if (driver.empty())
        j.null();
      else
        j.value(driver);
      j.key("devices").begin_array();
      for (const auto& d : devices)
        j.begin_object()
            .field("ordinal", d.ordinal)
            .field("name", d.name)
            .field("cc", d.cc)
            .field("memory_mib", static_cast<unsigned long long>(d.total_mem_bytes >> 20))
            .end_object();
      j.end_array();
      j.key("no_device");
      if (devices.empty())
        j.value(why.empty() ? std::string("no CUDA device") : why);
      else
        j.null();
      j.field("presets", device_preset_names());
      if (!a->spec_path.empty()) j.field("ctest_resource_spec", a->spec_path);
      j.end_object();
      std::cout << j.str();
      return kOk;
    }
    if (devices.empty()) std::cout << "no CUDA device" << (why.empty() ? "" : ": " + why) << "\n";
    for (const auto& d : devices)
      std::cout << d.ordinal << ": " << d.name << "  cc " << d.cc << "  " << (d.total_mem_bytes >> 20)
                << " MiB  driver CUDA " << driver << "\n";
    std::cout << "presets:";
    for (const auto& n : device_preset_names()) std::cout << " " << n;
    std::cout << "\n";
    if (!a->spec_path.empty())
      std::cout << "CTest resource spec (" << devices.size() << " GPU slot(s)): " << a->spec_path << "\n";
    return kOk;
  };
}

}  // namespace gridfuzz::app
