#pragma once
// Shape of a q8_1 activation row as vLLM's ggml_moe_a8_vec lays it out
// (docs/KERNELS.md, "q8_1 activation quantization", "vLLM ggml_moe_a8_vec"): columns padded to a
// multiple of 512, one 36-byte block per 32 padded columns, rows stored as
// int32 [rows, padded/32*9]. 64-bit throughout: these feed products of shapes.
#include <cstdint>

#include "gridfuzz/formats/host_device.hpp"

namespace gridfuzz::formats::gguf {

inline constexpr std::uint64_t kQ8_1RowPadding = 512;  // vLLM's MATRIX_ROW_PADDING
inline constexpr std::uint64_t kQ8_1BlockValues = 32;
inline constexpr std::uint64_t kQ8_1BlockInt32s = 9;   // 36 bytes

// ceil(cols/512)*512; 0 for 0 columns.
GRIDFUZZ_FORMATS_HD constexpr std::uint64_t q8_1_padded_cols(std::uint64_t cols) {
  return (cols / kQ8_1RowPadding + (cols % kQ8_1RowPadding != 0)) * kQ8_1RowPadding;
}

// q8_1 blocks in one padded activation row.
GRIDFUZZ_FORMATS_HD constexpr std::uint64_t q8_1_blocks_per_row(std::uint64_t cols) {
  return q8_1_padded_cols(cols) / kQ8_1BlockValues;
}

// Row stride of quant_X in int32 units (what vLLM passes as token_stride).
GRIDFUZZ_FORMATS_HD constexpr std::uint64_t q8_1_row_stride_int32(std::uint64_t cols) {
  return q8_1_blocks_per_row(cols) * kQ8_1BlockInt32s;
}

}  // namespace gridfuzz::formats::gguf
