#include "builtin_kernels.hpp"

#include "selftest_kernels.hpp"

namespace gridfuzz::cli {

void register_builtin_kernels(Registry& registry) { selftest::register_kernels(registry); }

}  // namespace gridfuzz::cli
