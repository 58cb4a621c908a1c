// The entry point of libgridfuzz_selftest.so (`gridfuzz --plugin .../libgridfuzz_selftest.so`).
#include "gridfuzz/plugin.hpp"
#include "selftest_kernels.hpp"

GRIDFUZZ_PLUGIN(gridfuzz::selftest::register_kernels)
