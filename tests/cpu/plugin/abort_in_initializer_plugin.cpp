// A plugin whose static initializer aborts as it is loaded (SIGABRT).
#include <cstdlib>

#include "gridfuzz/plugin.hpp"

namespace {
void register_nothing(gridfuzz::Registry&) {}
[[maybe_unused]] const int ended = [] {
  std::abort();
  return 0;
}();
}  // namespace

GRIDFUZZ_PLUGIN(register_nothing)
