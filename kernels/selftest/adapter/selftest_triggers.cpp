#include "selftest_triggers.hpp"

namespace gridfuzz::selftest {

std::vector<Trigger> triggers() {
  constexpr std::int64_t k2_31 = 1ll << 31;
  return {
      {"B.1", "selftest.flat_yz", "legacy", "rows", {{"cols", "64"}}, 32768, 131072, 65536, "refuse:grid.z",
       "refused", "rows on grid.z; the unchecked refusal is caught by the launch record"},
      {"B.2", "selftest.dropped_rows", "legacy", "rows", {{"cols", "64"}}, 32768, 131072, 65536, "none", "unwritten",
       "grid.y clamped to 65535 without a loop: accepted, last rows never written"},
      {"B.3", "selftest.host_int32", "legacy", "rows", {{"cols", "65536"}}, 16384, 49152, 32768, "refuse:grid.x",
       "refused", "int n = rows*cols reaches 2^31: negative block count"},
      {"B.3", "selftest.host_int32", "legacy", "rows", {{"cols", "65536"}}, 65536, 65536, 65536, "refuse:grid.zero",
       "refused", "n = 2^32 exactly: zero block count"},
      {"B.3", "selftest.host_int32", "legacy", "rows", {{"cols", "65536"}}, 65537, 65537, 65537, "wrap:n_plus_255",
       "unwritten", "n = 2^32 + 65536: 256 blocks accepted, only a prefix written"},
      {"B.4", "selftest.int32_offset", "legacy", "rows", {{"cols", "4096"}}, 480000, 570000, 524289,
       "wrap:x_offset", "mismatch", "int32 read offset past 2^31 reads the neighbouring layer: silent"},
      {"B.4", "selftest.int32_offset_fault", "legacy", "rows", {{"cols", "4096"}}, 480000, 570000, 524289,
       "wrap:y_offset", "fault", "int32 store offset past 2^31 writes 2 GiB below the output"},
      {"B.5", "selftest.uint32_offset", "legacy", "rows", {{"cols", "4096"}}, 1000000, 1090000, 1048577,
       "wrap:x_offset", "mismatch", "uint32 read offset past 2^32 wraps to the first rows: silent"},
      {"B.6", "selftest.grid_stride_loop", "legacy", "n", {}, k2_31 - (1ll << 20) - 49999, k2_31 - (1ll << 20) + 49999,
       k2_31 - (1ll << 20) + 1,
       "wrap:loop_counter", "fault", "int loop counter overflows at n = 2^31 - stride + 1 (stride 2^20)"},
      {"B.7", "selftest.block_threads", "legacy", "heads", {{"tokens", "64"}}, 1, 1024, 65, "refuse:block.threads",
       "refused", "block (16, heads): 1040 threads at 65 heads"},
      {"B.8", "selftest.dynamic_smem", "legacy", "cols", {{"rows", "4"}}, 1, 65536, 12289, "refuse:smem.default",
       "refused", "row cache cols*4 B over 48 KiB without opt-in"},
      {"B.8", "selftest.dynamic_smem", "optin", "cols", {{"rows", "4"}}, 1, 65536, 58113, "refuse:smem.optin",
       "refused", "row cache over the 232,448 B opt-in maximum"},
      {"B.9", "selftest.register_pressure", "legacy", "threads", {{"n", "65536"}}, 1, 1024, 897, "refuse:regs",
       "refused", "72 registers x 897 threads (29 warps, 32 allocated) = 73,728 > 65,536"},
  };
}

}  // namespace gridfuzz::selftest
