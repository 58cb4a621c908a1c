#pragma once
// The one kernel parameter of moe_vec / mmvq (passed by value through cuLaunchKernel).
#include <cstdint>

namespace gridfuzz::gguf {

struct GemvArgs {
  const std::uint8_t* weights = nullptr;  // experts contiguous: (e*nrows + r)*blocks_per_row + i
  const int* act = nullptr;               // q8_1 rows, token_stride int32 words apart
  void* dst = nullptr;                    // [pairs, nrows] f32 or bf16
  const int* ids = nullptr;               // [tokens, top_k] expert ids; nullptr: dense mmvq
  std::uint64_t nrows = 0, blocks_per_row = 0, token_stride = 0, top_k = 1;
  std::uint64_t pair_offset = 0, row_offset = 0;  // wide kernels only
  int pairs_on_z = 0;
};

}  // namespace gridfuzz::gguf
