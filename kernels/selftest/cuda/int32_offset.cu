// selftest.int32_offset: `int off = row * cols + col` inside the kernel
// (docs/BUG-CLASSES.md, "B.4", the silent form: Mamba #884, embedding_bag #188467, ONNX Runtime
// softmax). The kernel reads layer 1 of a two-layer arena (a KV-cache-like allocation); once
// row*cols passes 2^31 the offset goes negative and the reads land in layer 0, another live tensor
// of the same case. No fault, no error, every output written: the split-batch compare is what
// catches it (mismatch). The fixed twin computes the offset in 64 bits.
#include "row_sums.cuh"

namespace gridfuzz::selftest {

std::shared_ptr<const Kernel> make_int32_offset() {
  return make_row_sum_kernel<OffsetKind::int32>(
      row_sum_info("selftest.int32_offset",
                   "int32 read offset wraps at 2^31 and reads the neighbouring layer of the arena: silent (B.4)"),
      {IndexType::int32, true, 1ull << 31});
}

}  // namespace gridfuzz::selftest
