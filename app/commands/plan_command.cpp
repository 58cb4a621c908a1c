// `gridfuzz plan KERNEL --variant V --set name=value...`: a kernel's launch plan and prediction.
// `gridfuzz plan --grid X[,Y[,Z]] --block X[,Y[,Z]] [--smem B] [--optin] [--regs N]`: one raw launch.
// No GPU needed. Exit 0 accepted (and no index wraps), 1 refused or wrapping, 2 bad input.
#include <iostream>

#include "gridfuzz/engine/runner.hpp"
#include "gridfuzz/app/case_expansion.hpp"
#include "gridfuzz/app/commands.hpp"
#include "gridfuzz/core/vocabulary.hpp"
#include "gridfuzz/predictor.hpp"
#include "gridfuzz/app/parse.hpp"
#include "gridfuzz/app/session.hpp"

namespace gridfuzz::app {
namespace {

struct PlanArgs {
  std::string kernel, variant;
  std::vector<std::string> sets;
  std::string grid, block, smem = "0", static_smem = "0", regs = "0";
  bool optin = false;
};

int plan_raw(const PlanArgs& a, const SelectedLimits& sel) {
  if (a.grid.empty() || a.block.empty()) throw UsageError("plan: --grid and --block are required without a KERNEL");
  LaunchSpec l;
  l.name = "launch";
  l.grid = parse_dim3(a.grid, "--grid");
  l.block = parse_dim3(a.block, "--block");
  l.dynamic_smem_bytes = parse_u64(a.smem, "--smem");
  l.func.static_smem_bytes = parse_u64(a.static_smem, "--static-smem");
  l.smem_optin = a.optin;
  const std::uint64_t regs = parse_u64(a.regs, "--regs");
  if (regs > 65536) throw UsageError("--regs: " + a.regs + " registers per thread is more than any device has");
  l.func.num_regs = static_cast<int>(regs);
  const LaunchVerdict v = predict_launch(l, sel.limits);
  std::cout << "limits: " << sel.limits.name << " (cc " << sel.limits.cc() << ")\n";
  std::cout << "launch: " << describe(l) << "\n";
  std::cout << "prediction: " << v.outcome() << (v.accepted ? "" : "  (" + v.detail + ")") << "\n";
  return v.accepted ? kOk : kFound;
}

int plan_kernel(const PlanArgs& a, const SelectedLimits& sel) {
  if (!a.grid.empty() || !a.block.empty()) throw UsageError("plan: --grid/--block describe a raw launch; drop KERNEL or them");
  const Kernel& k = Session(GlobalOptions{}, EngineOptions{}).kernel(a.kernel);
  std::vector<SetArg> sets;
  for (const auto& s : a.sets) sets.push_back(parse_set(s, false));
  const Params p = expand_cases(k.axes(), sets, false).front();
  if (auto err = k.check(p)) throw UsageError(k.name() + ": " + *err);
  const std::string variant = a.variant.empty() ? k.variants().front() : a.variant;
  const auto vs = k.variants();
  if (std::find(vs.begin(), vs.end(), variant) == vs.end()) throw UsageError(k.name() + ": unknown variant '" + variant + "'");
  const LaunchPlan plan = bind_case(k, p, variant)->plan(sel.limits);
  const Prediction pred = predict(plan, sel.limits);
  std::cout << "limits: " << sel.limits.name << " (cc " << sel.limits.cc() << ")\n";
  std::cout << "case: " << Case{k.name(), variant, p, 1}.replay() << "\n";
  if (plan.host_error) std::cout << "host error before any launch: " << *plan.host_error << "\n";
  for (std::size_t i = 0; i < plan.launches.size(); ++i)
    std::cout << "launch " << i << ": " << describe(plan.launches[i]) << " -> " << pred.launches[i].outcome()
              << (pred.launches[i].accepted ? "" : " (" + pred.launches[i].detail + ")") << "\n";
  for (const auto& iv : pred.indices) std::cout << "index " << iv.name << ": " << iv.describe() << "\n";
  std::cout << "prediction: " << pred.outcome << "  index: " << pred.index_wrap() << "\n";
  return pred.accepted() && !index_wrap_of(pred).wraps() ? kOk : kFound;
}

}  // namespace

Runner add_plan_command(CLI::App& app, const GlobalOptions& global) {
  auto a = std::make_shared<PlanArgs>();
  auto* cmd = app.add_subcommand("plan", "predict a kernel's launches, or one raw launch (no GPU needed)");
  cmd->add_option("kernel", a->kernel, "kernel name; omit for a raw launch given by --grid/--block");
  cmd->add_option("--variant", a->variant, "variant (default: the kernel's first)");
  cmd->add_option("--set", a->sets, "axis value name=value (unset axes take their defaults)");
  cmd->add_option("--grid", a->grid, "raw launch: grid extents X[,Y[,Z]] (missing dimensions are 1)");
  cmd->add_option("--block", a->block, "raw launch: block extents X[,Y[,Z]] (missing dimensions are 1)");
  cmd->add_option("--smem", a->smem, "raw launch: dynamic shared memory in bytes (default 0)");
  cmd->add_option("--static-smem", a->static_smem, "raw launch: the function's static shared memory in bytes");
  cmd->add_flag("--optin", a->optin, "raw launch: the launcher raises the dynamic shared memory limit (opt-in)");
  cmd->add_option("--regs", a->regs, "raw launch: registers per thread (default: not checked)");
  return [a, &global]() -> int {
    const SelectedLimits sel = select_limits(global.device);
    if (!sel.note.empty()) std::cerr << "note: " << sel.note << "\n";
    return a->kernel.empty() ? plan_raw(*a, sel) : plan_kernel(*a, sel);
  };
}

}  // namespace gridfuzz::app
