#pragma once
// Shared by the self-test kernels: input values from a seed (never zero, never a poison pattern),
// the same values on host and device, and the fills that write them.
#include <cuda.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "gridfuzz/kernel.hpp"

#if defined(__CUDACC__)
#define GRIDFUZZ_SELFTEST_HD __host__ __device__
#else
#define GRIDFUZZ_SELFTEST_HD
#endif

namespace gridfuzz::selftest {

GRIDFUZZ_SELFTEST_HD inline std::uint64_t mix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
// 1..200: never 0 and never the u8 poison 0xDB, so a surviving poison byte is always unwritten.
GRIDFUZZ_SELFTEST_HD inline std::uint8_t byte_at(std::uint64_t i, std::uint64_t seed) {
  return static_cast<std::uint8_t>(1 + mix64(i ^ (seed << 40)) % 200);
}
// [0.5, 1.5): never zero; 2x+1 is then exact in float.
GRIDFUZZ_SELFTEST_HD inline float float_at(std::uint64_t i, std::uint64_t seed) {
  return 0.5f + static_cast<float>(mix64(i ^ (seed << 40)) >> 40) / static_cast<float>(1ull << 24);
}
// High bit clear: never the u32 poison 0xDEADBEEF.
GRIDFUZZ_SELFTEST_HD inline std::uint32_t word_at(std::uint64_t i, std::uint64_t seed) {
  return static_cast<std::uint32_t>(mix64(i ^ (seed << 40))) & 0x7FFFFFFFu;
}

// Fill n elements at `data` with byte_at / float_at / word_at(i, seed), through the checked launcher.
void fill_bytes(CUdeviceptr data, std::uint64_t n, std::uint64_t seed, CUstream stream);
void fill_floats(CUdeviceptr data, std::uint64_t n, std::uint64_t seed, CUstream stream);
void fill_words(CUdeviceptr data, std::uint64_t n, std::uint64_t seed, CUstream stream);

// The split reference's pieces: [0, total) along `axis`, `per_piece` at a time (the last one shorter).
inline std::vector<SplitPiece> pieces_of(const std::string& axis, std::uint64_t total, std::uint64_t per_piece) {
  std::vector<SplitPiece> pieces;
  for (std::uint64_t b = 0; b < total; b += per_piece) pieces.push_back({axis, b, std::min(total, b + per_piece)});
  return pieces;
}

// The variants of a kernel with a fixed twin, in the order of its variants() (shell.hpp).
enum class Variant { legacy, fixed };

// A deterministic sequence of sample positions for CPU references.
struct SampleSequence {
  std::uint64_t state;
  std::uint64_t next(std::uint64_t bound) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return bound ? (state >> 11) % bound : 0;
  }
};

// `count` CPU-reference samples: sample(pick, k) for k = 0, 1, ..., positions drawn from `pick`, a
// SampleSequence seeded from `seed`.
template <class Sample>
std::vector<ReferenceSample> samples_of(std::uint64_t seed, std::size_t count, Sample sample) {
  SampleSequence pick{seed | 1};
  std::vector<ReferenceSample> out;
  for (std::size_t k = 0; k < count; ++k) out.push_back(sample(pick, k));
  return out;
}

// CPU-reference samples of output buffer `buffer` (n elements): every other sample among the last
// `tail` elements, where a geometry bug shows first, the rest anywhere; `expected(e)` is the exact
// value of element e.
template <class Expected>
std::vector<ReferenceSample> tail_biased_samples(std::size_t buffer, std::uint64_t n, std::uint64_t tail,
                                                 std::uint64_t seed, std::size_t count, Expected expected) {
  return samples_of(seed, count, [&](SampleSequence& pick, std::size_t k) {
    const std::uint64_t e = k % 2 ? n - 1 - pick.next(tail < n ? tail : n) : pick.next(n);
    return ReferenceSample{buffer, e, expected(e), 0, 0};
  });
}

// Expected value of y = 2x + 1 over float inputs read back from the input buffer "x" (2x is exact,
// so the kernel's fp32 result is 2x+1 rounded once).
inline double two_x_plus_one(const BufferSet& bufs, std::uint64_t e) {
  float x = 0;
  bufs.read(bufs.index_of("x"), e * sizeof(float), &x, sizeof(float));
  return static_cast<double>(2.0f * x + 1.0f);
}

}  // namespace gridfuzz::selftest
