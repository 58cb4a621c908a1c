#pragma once
// The launches one production call issues, as its host code would compute them.
#include <optional>
#include <string>
#include <vector>

#include "gridfuzz/index_range.hpp"
#include "gridfuzz/launch_spec.hpp"

namespace gridfuzz {

// A kernel argument computed on the host: its exact value and the type it is passed as.
struct HostArgument {
  std::string name;   // e.g. "n" of kernel<<<...>>>(..., int n)
  u128 value = 0;     // the exact value the shape gives (before any narrowing)
  IndexType type = IndexType::int32;
};

struct LaunchPlan {
  std::vector<LaunchSpec> launches;
  // Set when the host code itself fails before any launch (e.g. "div-by-zero" from a legacy
  // int32 batch division): the case records host-error:<what> and nothing is launched.
  std::optional<std::string> host_error;
  std::vector<IndexRange> indices;   // index expressions inside the kernels, with declared types
  // Values the host code computes from the shape and passes to a kernel as arguments of a
  // declared type (e.g. an element count passed as int). One that does not fit its type reaches
  // the kernel wrapped: the prediction says wrap:arg:<name>.
  std::vector<HostArgument> host_arguments;
};

}  // namespace gridfuzz
