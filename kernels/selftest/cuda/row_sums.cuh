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

template <OffsetKind kind>
const device::Function& row_sums_fn() {
  static const device::Function fn =
      device::Function::from_symbol(reinterpret_cast<const void*>(&row_sums<kind>), "row_sums");
  return fn;
}

// One shape: the input layer is [rows][cols] bytes ("x", or layer 1 of "arena"), sums has a word
// per row.
template <OffsetKind LegacyKind>
class RowSumCase final : public BoundCase {
 public:
  RowSumCase(const RowSumTraits& t, const Params& p, Variant variant)
      : t_(t), rows_(p.get_u64("rows")), cols_(p.get_u64("cols")), variant_(variant) {}

  LaunchPlan plan(const DeviceLimits&) const override {
    LaunchPlan plan;
    LaunchSpec l;
    l.name = "row_sums";
    l.grid = {rows_, 1, 1};
    l.block = {kRowSumThreads, 1, 1};
    plan.launches.push_back(l);
    plan.indices.push_back({"x_offset", u128{rows_} * cols_ - 1,
                            variant_ == Variant::legacy ? t_.legacy_type : IndexType::uint64, "elements"});
    plan.host_arguments.push_back({"cols", cols_, IndexType::uint32});  // unsigned cols
    return plan;
  }
  std::vector<BufferSpec> buffers() const override {
    const std::uint64_t layer = rows_ * cols_;
    return {{input_name(), BufferRole::input, ElementType::u8, layer * (t_.neighbour_layer ? 2 : 1)},
            {"sums", BufferRole::output, ElementType::u32, rows_}};
  }
  // One layer read, the sums written (the arena's other layer is never read).
  std::uint64_t bytes_moved() const override { return rows_ * (cols_ + 4); }
  std::vector<SplitPiece> split(const DeviceLimits&) const override {
    const std::uint64_t per_piece = std::max<std::uint64_t>(1, t_.reference_offsets / cols_);
    std::vector<SplitPiece> pieces;
    for (std::uint64_t r = 0; r < rows_; r += per_piece) pieces.push_back({"rows", r, std::min(rows_, r + per_piece)});
    return pieces;
  }
  ComparePolicy compare_policy() const override { return {true, 0, 0, "integer sums: bit-exact in any order"}; }
  void fill_inputs(std::uint64_t seed, const BufferSet& bufs, CUstream stream) const override {
    fill_bytes(bufs.ptr(input_name()), buffers().front().elements, seed, stream);
  }
  void launch(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
              CUstream stream) const override {
    const std::uint8_t* layer = this->layer(bufs);
    std::uint32_t* sums = bufs.as<std::uint32_t>("sums");
    unsigned cols = static_cast<unsigned>(cols_);
    void* args[] = {&layer, &sums, &cols};
    const LaunchSpec l = plan(limits).launches.front();
    if (variant_ == Variant::legacy)
      launcher.launch(row_sums_fn<LegacyKind>(), l, args, stream);
    else
      launcher.launch_checked(row_sums_fn<OffsetKind::uint64>(), l, args, stream);
  }
  void launch_split_reference(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
                              CUstream stream) const override {
    unsigned cols = static_cast<unsigned>(cols_);
    for (const SplitPiece& piece : split(limits)) {
      const std::uint8_t* layer = this->layer(bufs) + piece.begin * cols;
      std::uint32_t* sums = bufs.as<std::uint32_t>("sums") + piece.begin;
      void* args[] = {&layer, &sums, &cols};
      LaunchSpec l;
      l.grid = {piece.end - piece.begin, 1, 1};
      l.block = {kRowSumThreads, 1, 1};
      launcher.launch_checked(row_sums_fn<LegacyKind>(), l, args, stream);  // the same kernel, offsets in range
    }
  }
  std::vector<ReferenceSample> cpu_reference(const BufferSet& bufs, std::uint64_t seed,
                                             std::size_t count) const override {
    const std::uint64_t layer_begin = t_.neighbour_layer ? rows_ * cols_ : 0;
    const std::size_t input = bufs.index_of(input_name()), sums = bufs.index_of("sums");
    SampleSequence pick{seed | 1};
    std::vector<std::uint8_t> row_bytes(cols_);
    std::vector<ReferenceSample> out;
    for (std::size_t k = 0; k < count; ++k) {
      // Half the samples in the last rows, where the offsets wrap.
      const std::uint64_t row = k % 2 ? rows_ - 1 - pick.next(std::min<std::uint64_t>(rows_, 64)) : pick.next(rows_);
      bufs.read(input, layer_begin + row * cols_, row_bytes.data(), cols_);
      std::uint64_t sum = 0;
      for (std::uint8_t b : row_bytes) sum += b;
      out.push_back({sums, row, static_cast<double>(sum), 0, 0});
    }
    return out;
  }

 private:
  const char* input_name() const { return t_.neighbour_layer ? "arena" : "x"; }
  const std::uint8_t* layer(const BufferSet& bufs) const {
    return bufs.as<std::uint8_t>(input_name()) + (t_.neighbour_layer ? rows_ * cols_ : 0);
  }
  RowSumTraits t_;  // a copy: a bound case does not depend on its kernel's lifetime
  std::uint64_t rows_, cols_;
  Variant variant_;
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
  std::unique_ptr<BoundCase> bind(const Params& p, const std::string& variant) const override {
    return std::make_unique<RowSumCase<LegacyKind>>(t_, p, parse_legacy_or_fixed(name(), variant));
  }

 private:
  RowSumTraits t_;
};

}  // namespace gridfuzz::selftest
