#include "gridfuzz/device/plan_vs_recorded.hpp"

#include <algorithm>

namespace gridfuzz::device {
namespace {

std::string short_spec(const LaunchSpec& s) {
  return s.name + " grid=(" + to_string(s.grid) + ") block=(" + to_string(s.block) +
         ") smem=" + std::to_string(s.dynamic_smem_bytes);
}

std::string list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? "; " : "") + items[i];
  return out + "]";
}

}  // namespace

std::string plan_kernel_name(const std::string& plan_name) {
  return plan_name.substr(0, plan_name.find_first_of("<( "));
}

std::optional<std::string> plan_recorded_difference(const LaunchPlan& plan, const std::vector<LaunchRecord>& recorded) {
  std::string what;
  if (plan.launches.size() != recorded.size()) {
    what = std::to_string(plan.launches.size()) + " launch(es) planned, " + std::to_string(recorded.size()) +
           " recorded";
  } else {
    for (std::size_t i = 0; i < recorded.size() && what.empty(); ++i) {
      const LaunchSpec& p = plan.launches[i];
      const LaunchSpec& r = recorded[i].spec;
      const std::string at = "launch " + std::to_string(i) + ": ";
      // An empty recorded name is unknown (CUPTI names no kernel the driver refused): not compared.
      if (!r.name.empty() && plan_kernel_name(p.name) != r.name)
        what = at + "kernel " + plan_kernel_name(p.name) + " planned, " + r.name + " recorded";
      else if (!(p.grid == r.grid))
        what = at + "grid (" + to_string(p.grid) + ") planned, (" + to_string(r.grid) + ") recorded";
      else if (!(p.block == r.block))
        what = at + "block (" + to_string(p.block) + ") planned, (" + to_string(r.block) + ") recorded";
      else if (p.dynamic_smem_bytes != r.dynamic_smem_bytes)
        what = at + "dynamic smem " + std::to_string(p.dynamic_smem_bytes) + " planned, " +
               std::to_string(r.dynamic_smem_bytes) + " recorded";
    }
  }
  if (what.empty()) return std::nullopt;
  std::vector<std::string> planned, seen;
  for (const LaunchSpec& s : plan.launches) planned.push_back(short_spec(s));
  for (const LaunchRecord& r : recorded) seen.push_back((r.ok() ? "" : r.error + " ") + short_spec(r.spec));
  return "plan != recorded: " + what + "; plan: " + list(planned) + "; recorded: " + list(seen);
}

std::vector<int> recorded_registers(const LaunchPlan& plan, const std::vector<LaunchRecord>& recorded) {
  std::vector<int> regs(plan.launches.size(), 0);
  for (std::size_t i = 0; i < regs.size() && i < recorded.size(); ++i) {
    const LaunchSpec& p = plan.launches[i];
    const LaunchSpec& r = recorded[i].spec;
    // A harness launch records the plan's own name, a recorded one its kernel's base name (none
    // for a launch the driver refused: compared by geometry, as above).
    const bool same_kernel = r.name.empty() || plan_kernel_name(p.name) == plan_kernel_name(r.name);
    if (!same_kernel || !(p.grid == r.grid) || !(p.block == r.block)) break;
    regs[i] = std::max(0, r.func.num_regs);
  }
  return regs;
}

}  // namespace gridfuzz::device
