// A plugin that registers its kernels and then fails: its error must reach the user, and the
// kernels it made must be gone before its code is unloaded (gridfuzz crashed at exit once,
// destroying them from the registry after the library was closed).
#include <stdexcept>

#include "gridfuzz/plugin.hpp"
#include "selftest_kernels.hpp"

namespace {
void register_then_fail(gridfuzz::Registry& registry) {
  gridfuzz::selftest::register_kernels(registry);
  throw std::runtime_error("registered, then failed");
}
}  // namespace

GRIDFUZZ_PLUGIN(register_then_fail)
