#include "selftest_kernels.hpp"

namespace gridfuzz::selftest {

void register_kernels(Registry& registry) { registry.add(make_flat_index_yz()); }

}  // namespace gridfuzz::selftest
