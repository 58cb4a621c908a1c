#pragma once
// Self-test kernels: one per bug class of BUG-CLASSES.md section B, each with a fixed twin.
#include <memory>

#include "gridfuzz/kernel.hpp"
#include "gridfuzz/registry.hpp"

namespace gridfuzz::selftest {

std::shared_ptr<const Kernel> make_flat_index_yz();

void register_kernels(Registry& registry);

}  // namespace gridfuzz::selftest
