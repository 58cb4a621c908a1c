#pragma once
// The codebooks of the GGUF i-quants, host side (the CUDA kernels have their own copy in
// kernels/gguf/cuda/codebook_dot.cuh). Their numbers are generated at configure time from the
// pinned upstream header (formats/cmake/IqGrids.cmake; docs/DECISIONS.md, "i-quant
// codebooks"); only built when GRIDFUZZ_GGUF_IQ.
//
// A grid point is a vector of small non-negative magnitudes (iq2: 8 values in {8, 25, 43}; iq3:
// 4 values in {4, 12, ..., 62}); the sign of each value comes from a separate sign field. iq1 grid
// points are 8 values in {-1, 0, 1}, with no signs.
#include <cstdint>
#include <span>

namespace gridfuzz::formats::gguf {

// The raw tables, as upstream's header holds them (for the tests).
std::span<const std::uint64_t> iq2xxs_grid_table();  // 256 x 8 bytes
std::span<const std::uint64_t> iq2xs_grid_table();   // 512 x 8 bytes
std::span<const std::uint64_t> iq2s_grid_table();    // 1024 x 8 bytes
std::span<const std::uint32_t> iq3xxs_grid_table();  // 256 x 4 bytes
std::span<const std::uint32_t> iq3s_grid_table();    // 512 x 4 bytes
std::span<const std::uint32_t> iq1s_grid_table();    // 2048 x 8 nibbles: value + 1 (the GPU form)
std::span<const std::uint8_t> iq2_ksigns_table();    // 128 sign bytes

// Element j of a grid point: byte j of the little-endian entry (iq2, iq3); for iq1, the nibble
// of element j (j < 4: low nibble of byte j, else high nibble of byte j - 4) minus 1.
int iq2_grid_value(std::span<const std::uint64_t> grid, unsigned index, int j);
int iq3_grid_value(std::span<const std::uint32_t> grid, unsigned index, int j);
int iq1_grid_value(unsigned index, int j);

// The 8 sign bits (bit j set: value j negative) a 7-bit ksigns index selects.
std::uint8_t iq2_signs(unsigned index7);

}  // namespace gridfuzz::formats::gguf
