// selftest.uint32_offset: `unsigned off = row * cols + col` (docs/BUG-CLASSES.md, "B.5": softmax
// #84144, FlashInfer top-k #2937, arange #197673). Past 2^32 the offset wraps to the first rows of
// the same tensor: every output is written, silently wrong (mismatch). 2^32 bytes of input: 4 GiB.
// The fixed twin computes the offset in 64 bits.
#include "row_sums.cuh"

namespace gridfuzz::selftest {

std::shared_ptr<const Kernel> make_uint32_offset() {
  return make_row_sum_kernel<OffsetKind::uint32>(
      row_sum_info("selftest.uint32_offset", "uint32 read offset wraps at 2^32 to the first rows: silent (B.5)"),
      {IndexType::uint32, false, 1ull << 32});
}

}  // namespace gridfuzz::selftest
