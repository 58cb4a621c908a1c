#pragma once
// IEEE binary16 <-> binary32 conversion on bit patterns, exact and branch-explicit so that the
// host compiler and nvcc (host and device pass) produce the same bits. float -> half rounds to
// nearest, ties to even (what __float2half and ggml's GGML_FP32_TO_FP16 do); half -> float is
// exact. Subnormals, infinities and NaN (quiet, payload kept where it fits) are handled.
// Hand-written rather than _Float16 (which g++ 12 has on x86-64) because nvcc compiles this
// header too; the tests check it against _Float16 on every half and on random floats.
#include <cstdint>

#include "gridfuzz/formats/host_device.hpp"

namespace gridfuzz::formats::gguf {

namespace detail {
GRIDFUZZ_FORMATS_HD constexpr std::uint32_t float_bits(float f) { return __builtin_bit_cast(std::uint32_t, f); }
GRIDFUZZ_FORMATS_HD constexpr float bits_float(std::uint32_t u) { return __builtin_bit_cast(float, u); }
}  // namespace detail

GRIDFUZZ_FORMATS_HD constexpr std::uint16_t float_to_half_bits(float f) {
  const std::uint32_t x = detail::float_bits(f);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const std::uint32_t abs = x & 0x7fffffffu;
  if (abs >= 0x7f800000u) {  // inf or NaN; keep NaN quiet and non-zero
    const std::uint32_t payload = abs > 0x7f800000u ? (0x200u | ((abs >> 13) & 0x3ffu)) : 0u;
    return static_cast<std::uint16_t>(sign | 0x7c00u | payload);
  }
  if (abs >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u);  // >= 65520: rounds to inf
  if (abs < 0x38800000u) {  // below 2^-14: half subnormal (or zero)
    const std::uint32_t exp = abs >> 23;
    if (exp < 102) return static_cast<std::uint16_t>(sign);  // < 2^-25: rounds to zero (2^-25 is a tie to 0)
    // value = mant * 2^(exp-150); in units of 2^-24 that is mant >> (126 - exp), shift in [14, 24].
    const std::uint32_t mant = (abs & 0x7fffffu) | 0x800000u;
    const std::uint32_t shift = 126 - exp;
    std::uint32_t q = mant >> shift;
    const std::uint32_t rem = mant & ((1u << shift) - 1);
    const std::uint32_t halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (q & 1u))) ++q;  // may carry into the smallest normal
    return static_cast<std::uint16_t>(sign | q);
  }
  // Normal: rebias the exponent (127 -> 15) and round the 13 dropped mantissa bits.
  std::uint32_t h = (abs - 0x38000000u) >> 13;
  const std::uint32_t rem = abs & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;  // a carry correctly bumps the exponent
  return static_cast<std::uint16_t>(sign | h);
}

GRIDFUZZ_FORMATS_HD constexpr float half_bits_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  std::uint32_t exp = (h >> 10) & 0x1fu;
  std::uint32_t mant = h & 0x3ffu;
  if (exp == 0x1f) return detail::bits_float(sign | 0x7f800000u | (mant << 13));
  if (exp == 0) {
    if (mant == 0) return detail::bits_float(sign);
    // Subnormal half is a normal float: shift the leading one into the implicit position.
    exp = 113;  // 127 - 14
    while ((mant & 0x400u) == 0) {
      mant <<= 1;
      --exp;
    }
    return detail::bits_float(sign | (exp << 23) | ((mant & 0x3ffu) << 13));
  }
  return detail::bits_float(sign | ((exp + 112) << 23) | (mant << 13));
}

// The half nearest to f whose magnitude is not below |f| (f finite, |f| <= 65504). Quantizers store
// scales this way so that x / scale never exceeds the end of the quant grid after the rounding.
GRIDFUZZ_FORMATS_HD constexpr std::uint16_t float_to_half_bits_away_from_zero(float f) {
  std::uint16_t h = float_to_half_bits(f);
  const float back = half_bits_to_float(h);
  if ((f >= 0 ? back < f : back > f) && (h & 0x7fffu) < 0x7bffu) ++h;  // magnitude + 1 ulp
  return h;
}

}  // namespace gridfuzz::formats::gguf
