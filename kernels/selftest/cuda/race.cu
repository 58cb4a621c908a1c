// selftest.race: a planted race across blocks, for the oracle's self-check (issue 29; the verdict
// fail:nondeterministic, harness/core/include/gridfuzz/core/self_check.hpp). Column sums of a
// [rows][cols] table of words: y[c] = the sum of x[r][c] over the rows, wrapping at 2^32. One block
// per row, one thread per column, after a first launch that zeroes y. The legacy kernel adds its
// row with a plain read-modify-write, `y[c] += x[r][c]`: blocks resident at the same time read the
// same old value and all but one of their adds are lost, so y depends on which blocks ran together
// (the scheduling), and two identical calls give different outputs. It looks like a mismatch to the
// split reference; the self-check names it. The fixed twin adds with atomicAdd: integer addition
// commutes, so every order gives the same, exact sums.
//
// How sure the race is (the default shape, 4096 rows x 256 columns, on an H200): 132 SMs hold
// 8 blocks of 256 threads each, so about 1,056 blocks run at once and each of the 256 columns
// takes 4,096 adds, most of them racing a few hundred others. For two calls to agree, every
// column would have to lose exactly the same adds both times; a column's sum is then one of
// thousands of possible values, and all 256 must coincide. Measured (evidence/2026-12-02-race-probe):
// 199 of 199 pairs of calls differed in all 256 columns; from 64 rows down some pairs are equal.
// How the GPU test checks it: docs/BUG-CLASSES.md, "A race across blocks".
#include <algorithm>

#include "gridfuzz/checked_math.hpp"
#include "selftest_kernels.hpp"
#include "shell.hpp"

namespace gridfuzz::selftest {
namespace {

constexpr std::uint64_t kZeroThreads = 256;
constexpr std::uint64_t kReferenceThreads = 128;

__global__ void zero_words(std::uint32_t* y, std::uint64_t n) {
  const std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 0;
}

// Block r adds row r to y; the threads are the columns.
template <bool Atomic>
__global__ void add_rows(const std::uint32_t* x, std::uint32_t* y, std::uint64_t cols) {
  const std::uint64_t col = threadIdx.x;
  const std::uint32_t v = x[static_cast<std::uint64_t>(blockIdx.x) * cols + col];
  if constexpr (Atomic)
    atomicAdd(&y[col], v);
  else
    y[col] += v;  // the race: read, add, write back, while other blocks do the same to y[col]
}

// The split reference: one thread per column of the piece, summing its column down the rows in
// order (x and y start at the piece's first column; `stride` is a row's length).
__global__ void column_sums(const std::uint32_t* x, std::uint32_t* y, std::uint64_t rows, std::uint64_t stride,
                            std::uint64_t count) {
  const std::uint64_t c = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c >= count) return;
  std::uint32_t s = 0;
  for (std::uint64_t r = 0; r < rows; ++r) s += x[r * stride + c];
  y[c] = s;
}

const Symbol kZero{&zero_words, "zero_words"}, kRacyAdd{&add_rows<false>, "add_rows"},
    kAtomicAdd{&add_rows<true>, "add_rows_atomic"}, kColumnSums{&column_sums, "column_sums"};

class RaceCase final : public BoundCase {
 public:
  RaceCase(const Params& p, Variant variant) : variant_(variant), rows_(p.get_u64("rows")), cols_(p.get_u64("cols")) {}

  std::vector<BufferSpec> buffers() const override {
    return {{"x", BufferRole::input, ElementType::u32, rows_ * cols_}, {"y", BufferRole::output, ElementType::u32, cols_}};
  }
  // Both variants: y zeroed, then one block per row (only the kernel of the second launch differs).
  LaunchPlan plan(const DeviceLimits&) const override {
    LaunchPlan plan;
    plan.launches.push_back(launch_of({ceil_div(cols_, kZeroThreads), 1, 1}, {kZeroThreads, 1, 1}, "zero_words"));
    plan.launches.push_back(launch_of({rows_, 1, 1}, {cols_, 1, 1}, "add_rows"));
    plan.indices.push_back({"x_index", u128{rows_} * cols_ - 1, IndexType::uint64, "elements"});
    return plan;
  }
  std::vector<SplitPiece> split(const DeviceLimits&) const override {
    return pieces_of("cols", cols_, kReferenceThreads);
  }
  ComparePolicy compare_policy() const override {
    return {true, 0, 0, "wrapping integer sums: the same in any order, bit-exact"};
  }
  void fill_inputs(std::uint64_t seed, const BufferSet& bufs, CUstream stream) const override {
    fill_words(bufs.ptr("x"), rows_ * cols_, seed, stream);
  }
  void launch(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
              CUstream stream) const override {
    const LaunchPlan p = plan(limits);
    KernelArgs zero(bufs.as<std::uint32_t>("y"), cols_);
    KernelArgs add(bufs.as<const std::uint32_t>("x"), bufs.as<std::uint32_t>("y"), cols_);
    if (variant_ == Variant::legacy) {
      launcher.launch(function_of(kZero), p.launches[0], zero.get(), stream);
      launcher.launch(function_of(kRacyAdd), p.launches[1], add.get(), stream);
    } else {
      launcher.launch_checked(function_of(kZero), p.launches[0], zero.get(), stream);
      launcher.launch_checked(function_of(kAtomicAdd), p.launches[1], add.get(), stream);
    }
  }
  void launch_split_reference(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
                              CUstream stream) const override {
    for (const SplitPiece& piece : split(limits)) {
      const std::uint64_t count = piece.end - piece.begin;
      KernelArgs a(bufs.as<const std::uint32_t>("x") + piece.begin, bufs.as<std::uint32_t>("y") + piece.begin, rows_,
                   cols_, count);
      launcher.launch_checked(function_of(kColumnSums),
                              launch_of({ceil_div(count, kReferenceThreads), 1, 1}, {kReferenceThreads, 1, 1}),
                              a.get(), stream);
    }
  }
  // The column sums from the seed alone (word_at is the fill's value): no read of the device.
  std::vector<ReferenceSample> cpu_reference(const BufferSet& bufs, std::uint64_t seed,
                                             std::size_t count) const override {
    const std::size_t y = bufs.index_of("y");
    return samples_of(seed, count, [&](SampleSequence& pick, std::size_t) {
      const std::uint64_t c = pick.next(cols_);
      std::uint32_t s = 0;
      for (std::uint64_t r = 0; r < rows_; ++r) s += word_at(r * cols_ + c, seed);
      return ReferenceSample{y, c, static_cast<double>(s), 0, 0};
    });
  }

 private:
  Variant variant_;
  std::uint64_t rows_, cols_;
};

}  // namespace

std::shared_ptr<const Kernel> make_race() {
  return make_kernel<RaceCase>(
      {"selftest.race",
       "column sums by a plain read-modify-write across blocks: the result depends on the scheduling, two "
       "identical calls differ (a planted race; fixed: atomicAdd)",
       {{"rows", "rows, one block each (the blocks that race)", "4096", {}, 1, 1 << 18},
        {"cols", "columns, one thread each", "256", {}, 1, 1024}}});
}

}  // namespace gridfuzz::selftest
