#pragma once
// The row-sum kernel behind selftest.int32_offset and selftest.uint32_offset
// (docs/BUG-CLASSES.md, "B.4", "B.5"): sums[row] = the sum of the row's bytes, read at
// `row * cols + col` computed in the offset type the code declares. A wrapped read offset lands in
// valid memory (the neighbouring layer of the same arena for int32, the first rows for uint32), so
// every output is written, with wrong values, and nothing raises: only the split-batch compare sees
// it (mismatch).
#include <algorithm>
#include <string>

#include "gridfuzz/checked_math.hpp"
#include "gridfuzz/device/function.hpp"
#include "selftest_kernels.hpp"
#include "support.hpp"

namespace gridfuzz::selftest {

enum class OffsetKind { int32, uint32, uint64 };

constexpr unsigned kRowSumThreads = 256;

template <OffsetKind kind>
__device__ inline std::uint8_t load(const std::uint8_t* layer, unsigned row, unsigned cols, unsigned col) {
  if constexpr (kind == OffsetKind::int32) {
    // int off = row * cols + col, wrapping as the upstream int arithmetic does in practice
    // (written through unsigned so the wrap is defined, not optimized away).
    const int off = static_cast<int>(row * cols + col);
    return layer[off];
  } else if constexpr (kind == OffsetKind::uint32) {
    const unsigned off = row * cols + col;
    return layer[off];
  } else {
    return layer[static_cast<std::uint64_t>(row) * cols + col];
  }
}

template <OffsetKind kind>
__global__ void row_sums(const std::uint8_t* layer, std::uint32_t* sums, unsigned cols) {
  __shared__ std::uint32_t partial[kRowSumThreads];
  const unsigned row = blockIdx.x;
  std::uint32_t s = 0;
  for (unsigned c = threadIdx.x; c < cols; c += blockDim.x) s += load<kind>(layer, row, cols, c);
  partial[threadIdx.x] = s;
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) sums[row] = partial[0];  // integer sums: exact in any order
}

// What differs between the two self-tests.
struct RowSumTraits {
  std::string name, description;
  OffsetKind legacy_offset;
  IndexType legacy_type;
  bool neighbour_layer;              // input is [layer 0 | layer 1]; the kernel reads layer 1
  std::uint64_t reference_offsets;   // a split piece keeps its offsets below this
};

template <OffsetKind LegacyKind>
class RowSumKernel final : public Kernel {
 public:
  explicit RowSumKernel(RowSumTraits t) : t_(std::move(t)) {}
  std::string name() const override { return t_.name; }
  std::string description() const override { return t_.description; }
  std::vector<std::string> variants() const override { return {"legacy", "fixed"}; }
  std::vector<AxisSpec> axes() const override {
    return {{"rows", "rows, one block each", "64", {}, 1, 1 << 22}, {"cols", "bytes per row", "4096", {}, 1, 65536}};
  }
  std::optional<std::string> check(const Params&) const override { return std::nullopt; }

  LaunchPlan plan(const Params& p, const std::string& variant, const DeviceLimits&) const override {
    const std::uint64_t rows = p.get_u64("rows"), cols = p.get_u64("cols");
    LaunchPlan plan;
    LaunchSpec l;
    l.name = "row_sums";
    l.grid = {rows, 1, 1};
    l.block = {kRowSumThreads, 1, 1};
    plan.launches.push_back(l);
    plan.indices.push_back({"x_offset", u128{rows} * cols - 1, variant == "legacy" ? t_.legacy_type : IndexType::uint64,
                            "elements"});
    return plan;
  }
  std::vector<BufferSpec> buffers(const Params& p) const override {
    const std::uint64_t rows = p.get_u64("rows"), layer = rows * p.get_u64("cols");
    return {{t_.neighbour_layer ? "arena" : "x", BufferRole::input, ElementType::u8, layer * (t_.neighbour_layer ? 2 : 1)},
            {"sums", BufferRole::output, ElementType::u32, rows}};
  }
  std::uint64_t bytes_moved(const Params& p) const override {
    return p.get_u64("rows") * (p.get_u64("cols") + 4);
  }
  std::vector<SplitPiece> split(const Params& p, const DeviceLimits&) const override {
    const std::uint64_t rows = p.get_u64("rows"), per_piece = std::max<std::uint64_t>(1, t_.reference_offsets / p.get_u64("cols"));
    std::vector<SplitPiece> pieces;
    for (std::uint64_t r = 0; r < rows; r += per_piece) pieces.push_back({"rows", r, std::min(rows, r + per_piece)});
    return pieces;
  }
  ComparePolicy compare_policy(const Params&, const std::string&) const override {
    return {true, 0, 0, "integer sums: bit-exact in any order"};
  }
  void fill_inputs(const Params& p, std::uint64_t seed, const BufferSet& bufs, CUstream stream) const override {
    fill_bytes(bufs.ptr(0), buffers(p)[0].elements, seed, stream);
  }
  void launch(const Params& p, const std::string& variant, const DeviceLimits& limits, const BufferSet& bufs,
              device::Launcher& launcher, CUstream stream) const override {
    const std::uint8_t* layer = this->layer(p, bufs);
    std::uint32_t* sums = bufs.as<std::uint32_t>(1);
    unsigned cols = static_cast<unsigned>(p.get_u64("cols"));
    void* args[] = {&layer, &sums, &cols};
    const LaunchSpec l = plan(p, variant, limits).launches.front();
    if (variant == "legacy")
      launcher.launch(function<LegacyKind>(), l, args, stream);
    else
      launcher.launch_checked(function<OffsetKind::uint64>(), l, args, stream);
  }
  void launch_split_reference(const Params& p, const DeviceLimits& limits, const BufferSet& bufs,
                              device::Launcher& launcher, CUstream stream) const override {
    unsigned cols = static_cast<unsigned>(p.get_u64("cols"));
    for (const SplitPiece& piece : split(p, limits)) {
      const std::uint8_t* layer = this->layer(p, bufs) + piece.begin * cols;
      std::uint32_t* sums = bufs.as<std::uint32_t>(1) + piece.begin;
      void* args[] = {&layer, &sums, &cols};
      LaunchSpec l;
      l.grid = {piece.end - piece.begin, 1, 1};
      l.block = {kRowSumThreads, 1, 1};
      launcher.launch_checked(function<LegacyKind>(), l, args, stream);  // the same kernel, offsets in range
    }
  }
  std::vector<ReferenceSample> cpu_reference(const Params& p, const BufferSet& bufs, std::uint64_t seed,
                                             std::size_t count) const override {
    const std::uint64_t rows = p.get_u64("rows"), cols = p.get_u64("cols");
    const std::uint64_t layer_begin = t_.neighbour_layer ? rows * cols : 0;
    SampleSequence pick{seed | 1};
    std::vector<std::uint8_t> row_bytes(cols);
    std::vector<ReferenceSample> out;
    for (std::size_t k = 0; k < count; ++k) {
      // Half the samples in the last rows, where the offsets wrap.
      const std::uint64_t row = k % 2 ? rows - 1 - pick.next(std::min<std::uint64_t>(rows, 64)) : pick.next(rows);
      bufs.read(0, layer_begin + row * cols, row_bytes.data(), cols);
      std::uint64_t sum = 0;
      for (std::uint8_t b : row_bytes) sum += b;
      out.push_back({1, row, static_cast<double>(sum), 0, 0});
    }
    return out;
  }

 private:
  const std::uint8_t* layer(const Params& p, const BufferSet& bufs) const {
    return bufs.as<std::uint8_t>(0) + (t_.neighbour_layer ? p.get_u64("rows") * p.get_u64("cols") : 0);
  }
  template <OffsetKind kind>
  static const device::Function& function() {
    static const device::Function fn =
        device::Function::from_symbol(reinterpret_cast<const void*>(&row_sums<kind>), "row_sums");
    return fn;
  }
  RowSumTraits t_;
};

}  // namespace gridfuzz::selftest
