#pragma once
#include "gridfuzz/registry.hpp"

namespace gridfuzz::app {

// Registers every built-in kernel family with `registry`.
void register_builtin_kernels(Registry& registry);

}  // namespace gridfuzz::app
