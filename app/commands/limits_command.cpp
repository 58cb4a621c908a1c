// `gridfuzz limits [--launch] [--markdown FILE]`: the launch limits of a device, with a probe on
// each side of every limit. Static: the Predictor's verdicts. With --launch (needs a GPU): every
// probe is launched and the driver's verdict is set beside the prediction; exit 1 if any differ.
#include <iostream>

#include "gridfuzz/app/commands.hpp"
#include "gridfuzz/device/cuda_error.hpp"
#include "gridfuzz/device/device.hpp"
#include "gridfuzz/probes/probe_runner.hpp"
#include "gridfuzz/predictor.hpp"
#include "gridfuzz/app/parse.hpp"
#include "gridfuzz/core/output_file.hpp"

namespace gridfuzz::app {
namespace {

void print_limits(const DeviceLimits& l) {
  std::cout << "device: " << l.name << " (cc " << l.cc() << ")\n"
            << "  grid max: " << l.max_grid_x << ", " << l.max_grid_y << ", " << l.max_grid_z << "\n"
            << "  block max: " << l.max_block_x << ", " << l.max_block_y << ", " << l.max_block_z
            << "; threads per block " << l.max_threads_per_block << "\n"
            << "  registers per block: " << l.regs_per_block << "\n"
            << "  shared memory per block: " << l.smem_per_block << " default, " << l.smem_per_block_optin
            << " opt-in\n"
            << "  SMs: " << l.sm_count << ", L2: " << l.l2_bytes << " B, memory: " << l.total_mem_bytes << " B\n";
}

// --markdown FILE: a table this command wrote may be replaced (both forms start with the same
// columns), nothing else.
OutputFile markdown_output(const std::string& path) {
  return OutputFile{path, "--markdown", "a limits table",
                    [](std::string_view head) { return head.starts_with("| boundary | kernel "); }, {}};
}

}  // namespace

Runner add_limits_command(CLI::App& app, const GlobalOptions& global) {
  auto launch = std::make_shared<bool>(false);
  auto markdown = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("limits", "launch limits of a device and the verdict at each boundary");
  cmd->add_flag("--launch", *launch, "launch every probe on the GPU and compare with the prediction");
  cmd->add_option("--markdown", *markdown, "also write the table as Markdown to this file");
  return [launch, markdown, &global]() -> int {
    if (!markdown->empty()) check_output_file(markdown_output(*markdown));
    const SelectedLimits sel = select_limits(global.device);
    if (!sel.note.empty()) std::cerr << "note: " << sel.note << "\n";
    print_limits(sel.limits);
    std::string table;
    int disagreements = 0;
    if (*launch) {
      if (!sel.on_device) throw device::NoDeviceError("--launch needs a CUDA device; " + sel.note);
      const auto results = device::run_limit_probes(global.device.device.value_or(0));
      for (const auto& r : results) disagreements += r.agree() ? 0 : 1;
      table = device::probes_markdown(results);
      std::cout << table << results.size() << " probes, " << disagreements << " disagree with the Predictor\n";
    } else {
      const auto kernels = sel.on_device ? device::device_probe_kernels() : assumed_probe_kernels();
      table = "| boundary | kernel | grid | block | dynamic smem | opt-in | predicted |\n|---|---|---|---|---|---|---|\n";
      for (const auto& p : limit_probes(sel.limits, kernels)) {
        table += "| " + p.boundary + " | " + p.kernel.name + " | " + to_string(p.launch.grid) + " | " +
                 to_string(p.launch.block) + " | " + std::to_string(p.launch.dynamic_smem_bytes) + " | " +
                 (p.launch.smem_optin ? "yes" : "no") + " | " + predict_launch(p.launch, sel.limits).outcome() + " |\n";
      }
      std::cout << table;
    }
    if (!markdown->empty()) write_output_file(markdown_output(*markdown), table);
    return disagreements == 0 ? kOk : kFound;
  };
}

}  // namespace gridfuzz::app
