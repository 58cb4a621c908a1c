#include "gridfuzz/formats/affine/params.hpp"

#include <algorithm>
#include <stdexcept>

#include "gridfuzz/checked_math.hpp"

namespace gridfuzz::formats::affine {

namespace {

template <std::size_t N>
std::string join(const std::array<int, N>& values) {
  std::string out;
  for (int v : values) out += (out.empty() ? "" : ", ") + std::to_string(v);
  return "{" + out + "}";
}

}  // namespace

bool is_supported_bits(int bits) {
  return std::ranges::find(kSupportedBits, bits) != kSupportedBits.end();
}

bool is_supported_group_size(int group_size) {
  return std::ranges::find(kSupportedGroupSizes, group_size) != kSupportedGroupSizes.end();
}

std::optional<std::string> validate_params(const AffineParams& p) {
  if (!is_supported_bits(p.bits)) {
    return "affine: unsupported bits " + std::to_string(p.bits) + " (supported: " +
           join(kSupportedBits) + ")";
  }
  if (!is_supported_group_size(p.group_size)) {
    return "affine: unsupported group_size " + std::to_string(p.group_size) + " (supported: " +
           join(kSupportedGroupSizes) + ")";
  }
  return std::nullopt;
}

std::optional<std::string> validate_packing(std::size_t cols, int bits) {
  if (bits < 1 || bits > 8) return "affine: bits " + std::to_string(bits) + " outside [1, 8]";
  const auto total_bits = checked_mul(cols, static_cast<std::uint64_t>(bits));
  if (!total_bits) return "affine: K*bits overflows 64 bits (K = " + std::to_string(cols) + ")";
  if (*total_bits % 32 != 0) {
    return "affine: K*bits = " + std::to_string(cols) + "*" + std::to_string(bits) + " = " +
           std::to_string(*total_bits) +
           " is not a multiple of 32 (rows must fill whole uint32 words)";
  }
  return std::nullopt;
}

std::optional<std::string> validate_shape(const AffineParams& p, std::size_t rows,
                                          std::size_t cols) {
  if (auto error = validate_params(p)) return error;
  if (cols == 0) return std::string("affine: K must be positive");
  if (cols % static_cast<std::size_t>(p.group_size) != 0) {
    return "affine: K = " + std::to_string(cols) + " is not a multiple of group_size " +
           std::to_string(p.group_size);
  }
  if (auto error = validate_packing(cols, p.bits)) return error;
  if (!checked_mul(rows, cols)) {
    return "affine: N*K overflows 64 bits (N = " + std::to_string(rows) + ", K = " +
           std::to_string(cols) + ")";
  }
  return std::nullopt;
}

void throw_if_error(const std::optional<std::string>& error) {
  if (error) throw std::invalid_argument(*error);
}

}  // namespace gridfuzz::formats::affine
