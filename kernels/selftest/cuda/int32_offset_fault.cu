// selftest.int32_offset_fault: `int off = row * cols + col` on a store (docs/BUG-CLASSES.md, "B.4",
// the faulting form: nll_loss2d #190139, Gather #28108, LoRA punica). Past 2^31 the offset goes
// negative and the kernel writes up to 2 GiB below its output, where nothing of the case is mapped:
// an illegal address, sticky for the context (gridfuzz's worker process absorbs it). The output is
// the only buffer of the case, so the wrap cannot land in one of ours. Fixed: 64 bits.
#include <algorithm>

#include "gridfuzz/checked_math.hpp"
#include "selftest_kernels.hpp"
#include "shell.hpp"

namespace gridfuzz::selftest {
namespace {

constexpr unsigned kThreads = 256;

// y[row * cols + col] = byte_at(global element index); row = row_base + blockIdx.x.
template <bool Int32Offset>
__global__ void store_rows(std::uint8_t* y, unsigned cols, std::uint64_t row_base) {
  const unsigned row = blockIdx.x;
  for (unsigned c = threadIdx.x; c < cols; c += blockDim.x) {
    const std::uint8_t v = byte_at((row_base + row) * cols + c, 0);
    if constexpr (Int32Offset)
      y[static_cast<int>(row * cols + c)] = v;  // int offset; wraps (made defined through unsigned)
    else
      y[static_cast<std::uint64_t>(row) * cols + c] = v;
  }
}

const Symbol kInt32Offset{&store_rows<true>, "store_rows_int32"}, kU64Offset{&store_rows<false>, "store_rows_u64"};

// One shape: y is [rows][cols] bytes.
class Int32OffsetFaultCase final : public BytesCase {
 public:
  Int32OffsetFaultCase(const Params& p, Variant variant)
      : BytesCase(variant, p.get_u64("rows"), {kInt32Offset, kU64Offset, kInt32Offset},
                  p.get_u64("rows") * p.get_u64("cols"), 1 << 20),
        rows_(p.get_u64("rows")), cols_(p.get_u64("cols")) {}

  LaunchPlan plan(const DeviceLimits&) const override {
    LaunchPlan plan;
    plan.launches.push_back(launch_of({rows_, 1, 1}, {kThreads, 1, 1}, "store_rows"));
    plan.indices.push_back({"y_offset", u128{rows_} * cols_ - 1,
                            variant_ == Variant::legacy ? IndexType::int32 : IndexType::uint64, "elements"});
    plan.host_arguments.push_back({"cols", cols_, IndexType::uint32});  // unsigned cols
    return plan;
  }
  std::vector<SplitPiece> split(const DeviceLimits&) const override {
    // Rows per piece: its offsets stay below 2^31 (int32 is exact there), so the reference is the
    // same kernel.
    return pieces_of("rows", rows_, std::max<std::uint64_t>(1, (1ull << 31) / cols_));
  }

 private:
  KernelArgs args(const BufferSet& bufs, std::uint64_t begin, std::uint64_t) const override {
    return KernelArgs(bufs.as<std::uint8_t>("y") + begin * cols_, static_cast<unsigned>(cols_), begin);
  }
  LaunchSpec reference_launch(std::uint64_t rows) const override { return launch_of({rows, 1, 1}, {kThreads, 1, 1}); }

  std::uint64_t rows_, cols_;
};

}  // namespace

std::shared_ptr<const Kernel> make_int32_offset_fault() {
  return make_kernel<Int32OffsetFaultCase>(
      {"selftest.int32_offset_fault",
       "int32 store offset wraps at 2^31 and writes 2 GiB below the output: illegal address (B.4)",
       {{"rows", "rows, one block each", "64", {}, 1, 1 << 22}, {"cols", "bytes per row", "4096", {}, 1, 65536}}});
}

}  // namespace gridfuzz::selftest
