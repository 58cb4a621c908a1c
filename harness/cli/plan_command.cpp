// `gridfuzz plan --grid X[,Y[,Z]] --block X[,Y[,Z]] [--smem B] [--optin] [--regs N]`:
// the Predictor's verdict for one raw launch. Exit 0 accepted, 1 refused, 2 bad input.
#include <iostream>

#include "commands.hpp"
#include "gridfuzz/predictor.hpp"
#include "parse.hpp"

namespace gridfuzz::cli {
namespace {

struct PlanArgs {
  std::string grid, block, smem = "0", static_smem = "0", regs = "0";
  bool optin = false;
};

}  // namespace

Runner add_plan_command(CLI::App& app, const GlobalOptions& global) {
  auto args = std::make_shared<PlanArgs>();
  auto* cmd = app.add_subcommand("plan", "predict whether the device accepts a launch (no GPU needed)");
  cmd->add_option("--grid", args->grid, "grid extents X[,Y[,Z]] (missing dimensions are 1)")->required();
  cmd->add_option("--block", args->block, "block extents X[,Y[,Z]] (missing dimensions are 1)")->required();
  cmd->add_option("--smem", args->smem, "dynamic shared memory in bytes (default 0)");
  cmd->add_option("--static-smem", args->static_smem, "the function's static shared memory in bytes (default 0)");
  cmd->add_flag("--optin", args->optin, "the launcher raises the function's dynamic shared memory limit (opt-in)");
  cmd->add_option("--regs", args->regs, "registers per thread of the function (default: not checked)");
  return [args, &global]() -> int {
    LaunchSpec l;
    l.name = "launch";
    l.grid = parse_dim3(args->grid, "--grid");
    l.block = parse_dim3(args->block, "--block");
    l.dynamic_smem_bytes = parse_u64(args->smem, "--smem");
    l.func.static_smem_bytes = parse_u64(args->static_smem, "--static-smem");
    l.smem_optin = args->optin;
    const std::uint64_t regs = parse_u64(args->regs, "--regs");
    if (regs > 65536) throw UsageError("--regs: " + args->regs + " registers per thread is more than any device has");
    l.func.num_regs = static_cast<int>(regs);

    const SelectedLimits sel = select_limits(global.device);
    if (!sel.note.empty()) std::cout << "note: " << sel.note << "\n";
    const LaunchVerdict v = predict_launch(l, sel.limits);
    std::cout << "limits: " << sel.limits.name << " (cc " << sel.limits.cc() << ")\n";
    std::cout << "launch: " << describe(l) << "\n";
    std::cout << "prediction: " << v.outcome() << (v.accepted ? "" : "  (" + v.detail + ")") << "\n";
    return v.accepted ? kOk : kFound;
  };
}

}  // namespace gridfuzz::cli
