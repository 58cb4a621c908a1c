// A plugin built for another API version: gridfuzz must refuse it before registering anything.
#include "gridfuzz/plugin.hpp"

namespace {
void register_nothing(gridfuzz::Registry&) {}
}  // namespace

#undef GRIDFUZZ_API_VERSION
#define GRIDFUZZ_API_VERSION 999
GRIDFUZZ_PLUGIN(register_nothing)
