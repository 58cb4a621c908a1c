#pragma once
// The probe kernels' symbols, for Function::from_symbol.
#include <string>
#include <vector>

#include "gridfuzz/core/limit_probes.hpp"

namespace gridfuzz::device {

struct ProbeSymbol {
  ProbeKernel kind;
  std::string name;
  const void* symbol;
};

const std::vector<ProbeSymbol>& probe_symbols();

}  // namespace gridfuzz::device
