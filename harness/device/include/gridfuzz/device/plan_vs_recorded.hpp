#pragma once
// The plan of a kernel whose own host code launches (launch_recorder.hpp) is gridfuzz's
// prediction of what that host code will launch. This compares it with what was recorded:
// the same number of launches, and for each, in order, the same kernel (base name; a recorded
// launch without a name, as CUPTI reports a refused one, matches any), grid, block and dynamic
// shared memory. Pure host code (the CPU tests replay recorded launches through it).
#include <optional>
#include <string>
#include <vector>

#include "gridfuzz/device/launcher.hpp"
#include "gridfuzz/launch_plan.hpp"

namespace gridfuzz::device {

// The kernel's base name in a plan entry: "mul_mat_vec_q<q4_0,ncols_dst=1>" -> "mul_mat_vec_q".
std::string plan_kernel_name(const std::string& plan_name);

// Empty when they agree; else one line with both sides: "plan != recorded: <what differs>;
// plan: [...]; recorded: [...]".
std::optional<std::string> plan_recorded_difference(const LaunchPlan& plan, const std::vector<LaunchRecord>& recorded);

// Registers per thread of each planned launch's function, as the launch made at the same place
// recorded them (cuFuncGetAttribute), one per launch of the plan: 0 where that launch was not
// made, its kernel is not the plan's, or the driver did not say (a launch the runtime refused
// before the driver saw it). Only the plan's run of launches up to the first difference counts.
std::vector<int> recorded_registers(const LaunchPlan& plan, const std::vector<LaunchRecord>& recorded);

}  // namespace gridfuzz::device
