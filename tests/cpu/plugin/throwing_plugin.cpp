// A plugin whose registration function throws: the message must reach the user.
#include <stdexcept>

#include "gridfuzz/plugin.hpp"

namespace {
void register_and_fail(gridfuzz::Registry&) { throw std::runtime_error("no kernels for you"); }
}  // namespace

GRIDFUZZ_PLUGIN(register_and_fail)
