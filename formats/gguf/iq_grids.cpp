// The host copy of the i-quant codebooks: the numbers of the generated header (IqGrids.cmake).
#include "iq_grids.hpp"

#if GRIDFUZZ_GGUF_IQ
#include "gridfuzz/formats/gguf/iq_grid_data.inc"

namespace gridfuzz::formats::gguf {
namespace {

constexpr std::uint64_t kIq2xxs[256] = {GRIDFUZZ_IQ2XXS_GRID};
constexpr std::uint64_t kIq2xs[512] = {GRIDFUZZ_IQ2XS_GRID};
constexpr std::uint64_t kIq2s[1024] = {GRIDFUZZ_IQ2S_GRID};
constexpr std::uint32_t kIq3xxs[256] = {GRIDFUZZ_IQ3XXS_GRID};
constexpr std::uint32_t kIq3s[512] = {GRIDFUZZ_IQ3S_GRID};
constexpr std::uint32_t kIq1s[2048] = {GRIDFUZZ_IQ1S_GRID};
constexpr std::uint8_t kSigns[128] = {GRIDFUZZ_IQ2_KSIGNS};

}  // namespace

std::span<const std::uint64_t> iq2xxs_grid_table() { return kIq2xxs; }
std::span<const std::uint64_t> iq2xs_grid_table() { return kIq2xs; }
std::span<const std::uint64_t> iq2s_grid_table() { return kIq2s; }
std::span<const std::uint32_t> iq3xxs_grid_table() { return kIq3xxs; }
std::span<const std::uint32_t> iq3s_grid_table() { return kIq3s; }
std::span<const std::uint32_t> iq1s_grid_table() { return kIq1s; }
std::span<const std::uint8_t> iq2_ksigns_table() { return kSigns; }

int iq2_grid_value(std::span<const std::uint64_t> grid, unsigned index, int j) {
  return static_cast<int>((grid[index] >> (8 * j)) & 0xFFu);
}

int iq3_grid_value(std::span<const std::uint32_t> grid, unsigned index, int j) {
  return static_cast<int>((grid[index] >> (8 * j)) & 0xFFu);
}

int iq1_grid_value(unsigned index, int j) {
  const int shift = j < 4 ? 8 * j : 8 * (j - 4) + 4;
  return static_cast<int>((kIq1s[index] >> shift) & 0xFu) - 1;
}

std::uint8_t iq2_signs(unsigned index7) { return kSigns[index7 & 127u]; }

}  // namespace gridfuzz::formats::gguf
#endif
