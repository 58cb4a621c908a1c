#pragma once
// Which affine quantization configurations exist, and the shape rules a matrix must satisfy.
// Validation returns the reason as text, so the CLI and the runner can report it verbatim.
#include <array>
#include <cstddef>
#include <optional>
#include <string>

namespace gridfuzz::formats::affine {

inline constexpr std::array<int, 6> kSupportedBits{2, 3, 4, 5, 6, 8};
inline constexpr std::array<int, 3> kSupportedGroupSizes{32, 64, 128};

struct AffineParams {
  int bits = 4;         // MLX default for mode "affine"
  int group_size = 64;  // MLX default for mode "affine"
  friend bool operator==(const AffineParams&, const AffineParams&) = default;
};

// Largest quantized value: 2^bits - 1 (the number of steps between the group's end points).
constexpr int max_quant(int bits) { return (1 << bits) - 1; }

bool is_supported_bits(int bits);
bool is_supported_group_size(int group_size);

// nullopt when the pair is supported, else why not.
std::optional<std::string> validate_params(const AffineParams& p);

// A row of `cols` values packs into whole uint32 words only when cols*bits % 32 == 0.
std::optional<std::string> validate_packing(std::size_t cols, int bits);

// Everything a [rows, cols] weight matrix needs: supported params, cols a positive multiple of
// group_size, whole words per row, and rows*cols (and the word count) representable in 64 bits.
std::optional<std::string> validate_shape(const AffineParams& p, std::size_t rows,
                                          std::size_t cols);

// Throws std::invalid_argument carrying the message when `error` is set.
void throw_if_error(const std::optional<std::string>& error);

}  // namespace gridfuzz::formats::affine
