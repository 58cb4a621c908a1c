#pragma once
// Self-test kernels: one per bug class of docs/BUG-CLASSES.md, each with a fixed twin. They
// use the public plugin API only and are built twice from the same sources: as the plugin
// libgridfuzz_selftest.so (`gridfuzz --plugin`), and as a static library for tests that call the
// adapters directly.
#include <memory>

#include "gridfuzz/kernel.hpp"
#include "gridfuzz/registry.hpp"

namespace gridfuzz::selftest {

std::shared_ptr<const Kernel> make_flat_index_yz();       // B.1 selftest.flat_yz
std::shared_ptr<const Kernel> make_dropped_rows();        // B.2 selftest.dropped_rows
std::shared_ptr<const Kernel> make_host_int32_count();    // B.3 selftest.host_int32
std::shared_ptr<const Kernel> make_int32_offset();        // B.4 selftest.int32_offset (silent)
std::shared_ptr<const Kernel> make_int32_offset_fault();  // B.4 selftest.int32_offset_fault
std::shared_ptr<const Kernel> make_uint32_offset();       // B.5 selftest.uint32_offset
std::shared_ptr<const Kernel> make_grid_stride_loop();    // B.6 selftest.grid_stride_loop
std::shared_ptr<const Kernel> make_block_threads();       // B.7 selftest.block_threads
std::shared_ptr<const Kernel> make_dynamic_smem();        // B.8 selftest.dynamic_smem
std::shared_ptr<const Kernel> make_register_pressure();   // B.9 selftest.register_pressure
// Not a geometry class: a race across blocks, for the oracle's self-check (fail:nondeterministic).
std::shared_ptr<const Kernel> make_race();                // selftest.race

void register_kernels(Registry& registry);

}  // namespace gridfuzz::selftest
