#pragma once
// The launches one production call issues, as its host code would compute them.
#include <optional>
#include <string>
#include <vector>

#include "gridfuzz/index_range.hpp"
#include "gridfuzz/launch_spec.hpp"

namespace gridfuzz {

struct LaunchPlan {
  std::vector<LaunchSpec> launches;
  // Set when the host code itself fails before any launch (e.g. "div-by-zero" from a legacy
  // int32 batch division): the case records host-error:<what> and nothing is launched.
  std::optional<std::string> host_error;
  std::vector<IndexRange> indices;   // index expressions inside the kernels, with declared types
};

}  // namespace gridfuzz
