#include "selftest_kernels.hpp"

namespace gridfuzz::selftest {

void register_kernels(Registry& registry) {
  for (auto make : {make_flat_index_yz, make_dropped_rows, make_host_int32_count, make_int32_offset,
                    make_int32_offset_fault, make_uint32_offset, make_grid_stride_loop, make_block_threads,
                    make_dynamic_smem, make_register_pressure, make_race})
    registry.add(make());
}

}  // namespace gridfuzz::selftest
