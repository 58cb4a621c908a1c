// A plugin whose static initializer ends the process with exit(0) as it is loaded: loaded
// in gridfuzz itself, every command would exit 0 with no output.
#include <cstdlib>

#include "gridfuzz/plugin.hpp"

namespace {
void register_nothing(gridfuzz::Registry&) {}
[[maybe_unused]] const int ended = [] {
  std::exit(0);
  return 0;
}();
}  // namespace

GRIDFUZZ_PLUGIN(register_nothing)
