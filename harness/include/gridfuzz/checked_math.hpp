#pragma once
// Exact arithmetic for products of shapes. Geometry and index planning never forms a product of
// two shape values in a type that can wrap silently: either 64-bit with an overflow check, or
// 128-bit where the exact value must be reported even past 2^64.
#include <cstdint>
#include <optional>
#include <string>

namespace gridfuzz {

using u128 = unsigned __int128;

// a*b in 64-bit, or nullopt when the exact product does not fit.
inline std::optional<std::uint64_t> checked_mul(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

inline std::optional<std::uint64_t> checked_add(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// ceil(a/b) for b > 0, without the a+b-1 overflow.
constexpr std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return a / b + (a % b != 0); }

// Decimal text of a 128-bit value (std::to_string has no overload for it).
std::string to_string_u128(u128 v);

}  // namespace gridfuzz
