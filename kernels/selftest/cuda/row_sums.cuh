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
#include "selftest_kernels.hpp"
#include "shell.hpp"

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

// What differs between the two self-tests (the legacy offset type is RowSumCase's template argument).
struct RowSumTraits {
  IndexType legacy_type;
  bool neighbour_layer;              // input is [layer 0 | layer 1]; the kernel reads layer 1
  std::uint64_t reference_offsets;   // a split piece keeps its offsets below this
};

// One shape: the input layer is [rows][cols] bytes ("x", or layer 1 of "arena"), sums has a word
// per row.
template <OffsetKind LegacyKind>
class RowSumCase final : public SelftestCase<> {
 public:
  RowSumCase(const RowSumTraits& t, const Params& p, Variant variant)
      : SelftestCase(variant, p.get_u64("rows"),
                     {{&row_sums<LegacyKind>, "row_sums"}, {&row_sums<OffsetKind::uint64>, "row_sums"},
                      {&row_sums<LegacyKind>, "row_sums"}},  // the reference: the same kernel, offsets in range
                     "integer sums: bit-exact in any order"),
        t_(t), rows_(p.get_u64("rows")), cols_(p.get_u64("cols")) {}

  LaunchPlan plan(const DeviceLimits&) const override {
    LaunchPlan plan;
    plan.launches.push_back(launch_of({rows_, 1, 1}, {kRowSumThreads, 1, 1}, "row_sums"));
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
    return pieces_of("rows", rows_, std::max<std::uint64_t>(1, t_.reference_offsets / cols_));
  }
  void fill_inputs(std::uint64_t seed, const BufferSet& bufs, CUstream stream) const override {
    fill_bytes(bufs.ptr(input_name()), buffers().front().elements, seed, stream);
  }
  std::vector<ReferenceSample> cpu_reference(const BufferSet& bufs, std::uint64_t seed,
                                             std::size_t count) const override {
    const std::uint64_t layer_begin = t_.neighbour_layer ? rows_ * cols_ : 0;
    const std::size_t input = bufs.index_of(input_name()), sums = bufs.index_of("sums");
    std::vector<std::uint8_t> row_bytes(cols_);
    return samples_of(seed, count, [&](SampleSequence& pick, std::size_t k) {
      // Half the samples in the last rows, where the offsets wrap.
      const std::uint64_t row = k % 2 ? rows_ - 1 - pick.next(std::min<std::uint64_t>(rows_, 64)) : pick.next(rows_);
      bufs.read(input, layer_begin + row * cols_, row_bytes.data(), cols_);
      std::uint64_t sum = 0;
      for (std::uint8_t b : row_bytes) sum += b;
      return ReferenceSample{sums, row, static_cast<double>(sum), 0, 0};
    });
  }

 private:
  KernelArgs args(const BufferSet& bufs, std::uint64_t begin, std::uint64_t) const override {
    return KernelArgs(layer(bufs) + begin * cols_, bufs.as<std::uint32_t>("sums") + begin,
                      static_cast<unsigned>(cols_));
  }
  LaunchSpec reference_launch(std::uint64_t rows) const override {
    return launch_of({rows, 1, 1}, {kRowSumThreads, 1, 1});
  }
  const char* input_name() const { return t_.neighbour_layer ? "arena" : "x"; }
  const std::uint8_t* layer(const BufferSet& bufs) const {
    return bufs.as<std::uint8_t>(input_name()) + (t_.neighbour_layer ? rows_ * cols_ : 0);
  }
  RowSumTraits t_;  // a copy: a bound case does not depend on its kernel's lifetime
  std::uint64_t rows_, cols_;
};

// bind() of a row-sum self-test: its cases share the kernel's traits.
template <OffsetKind LegacyKind>
struct BindRowSumCase {
  RowSumTraits t;
  std::unique_ptr<BoundCase> operator()(const Params& p, Variant v) const {
    return std::make_unique<RowSumCase<LegacyKind>>(t, p, v);
  }
};

// What `gridfuzz list` shows of a row-sum self-test.
inline KernelInfo row_sum_info(std::string name, std::string description) {
  return {std::move(name), std::move(description),
          {{"rows", "rows, one block each", "64", {}, 1, 1 << 22}, {"cols", "bytes per row", "4096", {}, 1, 65536}}};
}

// A row-sum self-test: its KernelInfo, the legacy offset type LegacyKind, and `t`.
template <OffsetKind LegacyKind>
std::shared_ptr<const Kernel> make_row_sum_kernel(KernelInfo info, RowSumTraits t) {
  return std::make_shared<SelftestKernel<>>(std::move(info), BindRowSumCase<LegacyKind>{t});
}

}  // namespace gridfuzz::selftest
