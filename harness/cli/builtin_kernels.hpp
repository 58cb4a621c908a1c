#pragma once
#include "gridfuzz/registry.hpp"

namespace gridfuzz::cli {

// Registers every built-in kernel family with `registry`.
void register_builtin_kernels(Registry& registry);

}  // namespace gridfuzz::cli
