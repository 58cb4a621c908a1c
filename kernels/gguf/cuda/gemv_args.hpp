#pragma once
// The one kernel parameter of moe_vec / mmvq (passed by value through cuLaunchKernel).
#include <cstdint>

#include "gridfuzz/formats/host_device.hpp"

namespace gridfuzz::gguf {

// n / d for any 32-bit n by a multiply-high, an add and a shift (Granlund-Montgomery, "Division
// by invariant integers using multiplication", fig. 4.1; PyTorch's IntDivider does the same).
// Why: the hardware has no integer divider, and the pair -> token division is ~18 instructions of
// a warp's ~100-instruction prologue in a kernel whose warps do little else; the host computes
// the constants once per call. The add is done in 64 bits, so the quotient is exact for every
// n < 2^32 (with a 32-bit add it would overflow from n >= 2^31).
struct U32Divider {
  std::uint32_t magic = 1, shift = 0;  // the divisor 1

  static U32Divider of(std::uint32_t d) {  // host; d >= 1
    U32Divider r;
    while ((std::uint64_t{1} << r.shift) < d) ++r.shift;  // ceil(log2 d)
    // floor(2^32 * (2^shift - d) / d) + 1 < 2^32, since 2^shift - d < d
    r.magic = static_cast<std::uint32_t>(((std::uint64_t{1} << r.shift) - d) * (std::uint64_t{1} << 32) / d + 1);
    return r;
  }
  GRIDFUZZ_FORMATS_HD std::uint32_t divide(std::uint32_t n) const {
    const std::uint64_t hi = (std::uint64_t{n} * magic) >> 32;
    return static_cast<std::uint32_t>((hi + n) >> shift);
  }
};

struct GemvArgs {
  const std::uint8_t* weights = nullptr;  // experts contiguous: (e*nrows + r)*blocks_per_row + i
  const int* act = nullptr;               // q8_1 rows, token_stride int32 words apart
  void* dst = nullptr;                    // [pairs, nrows] f32 or bf16
  const int* ids = nullptr;               // [tokens, top_k] expert ids; nullptr: dense mmvq
  std::uint64_t nrows = 0, blocks_per_row = 0, token_stride = 0, top_k = 1;
  std::uint64_t pair_offset = 0, row_offset = 0;  // gemv_fixed only
  U32Divider top_k_div;                           // gemv_fixed only: pair -> token below 2^32 pairs
  int pairs_on_z = 0;
};

// by_expert: the part [lo, hi) of an expert's `count` pairs that slice z of `slices` takes: equal
// slices of ceil(count/slices) pairs, the last ones short or empty (lo >= count: nothing).
struct PairSlice {
  std::uint64_t lo = 0, hi = 0;
};
GRIDFUZZ_FORMATS_HD inline PairSlice pair_slice(std::uint64_t count, std::uint64_t slices, std::uint64_t z) {
  const std::uint64_t per = (count + slices - 1) / slices;  // count < 2^63: no overflow
  const std::uint64_t lo = per * z, hi = lo + per;
  return {lo < count ? lo : count, hi < count ? hi : count};
}

// The second parameter of by_expert's kernels: its scratch (launch_geometry.hpp,
// ExpertGroupLayout) and the ids. `list` holds pair indices of the GEMV's index type.
struct ExpertGroupArgs {
  const int* ids = nullptr;  // [pairs]
  std::uint64_t pairs = 0, experts = 0;
  unsigned long long* counts = nullptr;   // [experts], zero before moe_expert_count
  unsigned long long* offsets = nullptr;  // [experts + 1]
  unsigned long long* cursor = nullptr;   // [experts]
  std::uint32_t* used = nullptr;          // [experts]
  std::uint32_t* n_used = nullptr;        // [1]
  void* list = nullptr;                   // [pairs]
  std::uint64_t expert_slot_offset = 0;   // moe_vec_by_expert: the launch's first used-expert slot
};

}  // namespace gridfuzz::gguf
