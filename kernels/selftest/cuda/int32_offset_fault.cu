// selftest.int32_offset_fault: `int off = row * cols + col` on a store (docs/BUG-CLASSES.md, "B.4",
// the faulting form: nll_loss2d #190139, Gather #28108, LoRA punica). Past 2^31 the offset goes
// negative and the kernel writes up to 2 GiB below its output, where nothing of the case is mapped:
// an illegal address, sticky for the context (gridfuzz's worker process absorbs it). The output is
// the only buffer of the case, so the wrap cannot land in one of ours. Fixed: 64 bits.
#include <algorithm>

#include "gridfuzz/checked_math.hpp"
#include "gridfuzz/device/function.hpp"
#include "selftest_kernels.hpp"
#include "support.hpp"

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

template <bool Int32Offset>
const device::Function& store_rows_fn() {
  static const device::Function fn = device::Function::from_symbol(
      reinterpret_cast<const void*>(&store_rows<Int32Offset>), Int32Offset ? "store_rows_int32" : "store_rows_u64");
  return fn;
}

// One shape: y is [rows][cols] bytes.
class Int32OffsetFaultCase final : public BoundCase {
 public:
  Int32OffsetFaultCase(const Params& p, Variant variant)
      : rows_(p.get_u64("rows")), cols_(p.get_u64("cols")), variant_(variant) {}

  LaunchPlan plan(const DeviceLimits&) const override {
    LaunchPlan plan;
    LaunchSpec l;
    l.name = "store_rows";
    l.grid = {rows_, 1, 1};
    l.block = {kThreads, 1, 1};
    plan.launches.push_back(l);
    plan.indices.push_back({"y_offset", u128{rows_} * cols_ - 1,
                            variant_ == Variant::legacy ? IndexType::int32 : IndexType::uint64, "elements"});
    plan.host_arguments.push_back({"cols", cols_, IndexType::uint32});  // unsigned cols
    return plan;
  }
  std::vector<BufferSpec> buffers() const override {
    return {{"y", BufferRole::output, ElementType::u8, rows_ * cols_}};
  }
  // bytes_moved: the default (y written once).
  std::vector<SplitPiece> split(const DeviceLimits&) const override {
    // Rows per piece: its offsets stay below 2^31 (int32 is exact there).
    return pieces_of("rows", rows_, std::max<std::uint64_t>(1, (1ull << 31) / cols_));
  }
  ComparePolicy compare_policy() const override {
    return {true, 0, 0, "a pure function of the element index: bit-exact"};
  }
  void fill_inputs(std::uint64_t, const BufferSet&, CUstream) const override {}
  void launch(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
              CUstream stream) const override {
    std::uint8_t* y = bufs.as<std::uint8_t>("y");
    unsigned cols = static_cast<unsigned>(cols_);
    std::uint64_t row_base = 0;
    void* args[] = {&y, &cols, &row_base};
    const LaunchSpec l = plan(limits).launches.front();
    launch_variant(launcher, variant_, store_rows_fn<true>(), store_rows_fn<false>(), l, args, stream);
  }
  void launch_split_reference(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
                              CUstream stream) const override {
    unsigned cols = static_cast<unsigned>(cols_);
    for (const SplitPiece& piece : split(limits)) {
      std::uint8_t* y = bufs.as<std::uint8_t>("y") + piece.begin * cols;
      std::uint64_t row_base = piece.begin;
      void* args[] = {&y, &cols, &row_base};
      LaunchSpec l;
      l.grid = {piece.end - piece.begin, 1, 1};
      l.block = {kThreads, 1, 1};
      launcher.launch_checked(store_rows_fn<true>(), l, args, stream);  // the same kernel, offsets in range
    }
  }
  std::vector<ReferenceSample> cpu_reference(const BufferSet& bufs, std::uint64_t seed,
                                             std::size_t count) const override {
    return tail_biased_samples(bufs.index_of("y"), rows_ * cols_, 1 << 20, seed, count,
                               [](std::uint64_t e) { return static_cast<double>(byte_at(e, 0)); });
  }

 private:
  std::uint64_t rows_, cols_;
  Variant variant_;
};

class Int32OffsetFault final : public Kernel {
 public:
  std::string name() const override { return "selftest.int32_offset_fault"; }
  std::string description() const override {
    return "int32 store offset wraps at 2^31 and writes 2 GiB below the output: illegal address (B.4)";
  }
  std::vector<std::string> variants() const override { return {"legacy", "fixed"}; }
  std::vector<AxisSpec> axes() const override {
    return {{"rows", "rows, one block each", "64", {}, 1, 1 << 22}, {"cols", "bytes per row", "4096", {}, 1, 65536}};
  }
  std::optional<std::string> check(const Params&) const override { return std::nullopt; }
  std::unique_ptr<BoundCase> bind(const Params& p, const std::string& variant) const override {
    return std::make_unique<Int32OffsetFaultCase>(p, parse_legacy_or_fixed(name(), variant));
  }
};

}  // namespace

std::shared_ptr<const Kernel> make_int32_offset_fault() { return std::make_shared<Int32OffsetFault>(); }

}  // namespace gridfuzz::selftest
