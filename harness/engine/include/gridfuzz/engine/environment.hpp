#pragma once
// What judging a case needs besides the case itself: the kernels, the limits the predictions are
// made against, the known-failure ledger, and the context every record carries. The CLI builds
// one from its options; the executors and the worker read it.
#include <string>

#include "gridfuzz/engine/case_record.hpp"
#include "gridfuzz/device_limits.hpp"
#include "gridfuzz/core/ledger.hpp"
#include "gridfuzz/registry.hpp"

namespace gridfuzz {

struct Environment {
  const Registry* registry = nullptr;
  DeviceLimits limits;
  Ledger ledger;
  RunContext context;

  // Throws std::invalid_argument, listing the known kernels, for a name the registry lacks.
  const Kernel& kernel(const std::string& name) const;
};

}  // namespace gridfuzz
