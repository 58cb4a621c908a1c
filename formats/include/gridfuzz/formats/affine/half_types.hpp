#pragma once
// Exact conversions between float and the 16-bit formats that hold activations, scales and
// biases: IEEE binary16 (fp16) and bfloat16 (bf16), as raw bit patterns. Float -> 16-bit rounds
// to nearest, ties to even (what __float2half_rn / __float2bfloat16_rn do); 16-bit -> float is
// exact. Header-only and free of CUDA types so that host code and kernels share it.
#include <cstdint>
#if !defined(__CUDA_ARCH__)
#include <cstring>
#endif

#include "gridfuzz/formats/host_device.hpp"

namespace gridfuzz::formats::affine {

GRIDFUZZ_FORMATS_HD inline std::uint32_t float_to_bits(float f) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(f);
#else
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
#endif
}

GRIDFUZZ_FORMATS_HD inline float bits_to_float(std::uint32_t u) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(u);
#else
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
#endif
}

// Rounds the magnitude m (a positive integer significand) right by `shift` bits, ties to even.
GRIDFUZZ_FORMATS_HD inline std::uint32_t shift_right_round_even(std::uint32_t m, unsigned shift) {
  if (shift == 0) return m;
  if (shift >= 32) return 0;  // callers keep m < 2^24, so everything is below half an ulp
  const std::uint32_t kept = m >> shift;
  const std::uint32_t rest = m & ((1u << shift) - 1u);
  const std::uint32_t half = 1u << (shift - 1);
  return kept + ((rest > half || (rest == half && (kept & 1u))) ? 1u : 0u);
}

// ---- bfloat16: the upper half of a float ----

GRIDFUZZ_FORMATS_HD inline std::uint16_t float_to_bf16_bits(float f) {
  const std::uint32_t u = float_to_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) {
    // NaN: keep sign and top payload, force quiet so the payload cannot round to infinity.
    return static_cast<std::uint16_t>((u >> 16) | 0x0040u);
  }
  // Adding 0x7fff plus the kept lsb rounds to nearest even; a carry into the exponent is the
  // correct result (including overflow to infinity).
  const std::uint32_t lsb = (u >> 16) & 1u;
  return static_cast<std::uint16_t>((u + 0x7fffu + lsb) >> 16);
}

GRIDFUZZ_FORMATS_HD inline float bf16_bits_to_float(std::uint16_t h) {
  return bits_to_float(static_cast<std::uint32_t>(h) << 16);
}

// ---- IEEE binary16: 1 sign, 5 exponent (bias 15), 10 mantissa bits ----

GRIDFUZZ_FORMATS_HD inline std::uint16_t float_to_fp16_bits(float f) {
  const std::uint32_t u = float_to_bits(f);
  const std::uint32_t sign = (u >> 16) & 0x8000u;
  const std::uint32_t mag = u & 0x7fffffffu;
  if (mag > 0x7f800000u) {  // NaN: quiet, keep the top payload bits
    return static_cast<std::uint16_t>(sign | 0x7e00u | ((mag >> 13) & 0x03ffu));
  }
  // 65520 = 65504 + half an ulp; the tie goes to the even neighbour 65536, which is infinity.
  if (mag >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u);
  if (mag >= 0x38800000u) {  // >= 2^-14: normal in fp16; rebias exponent 127 -> 15
    const std::uint32_t rebased = mag - 0x38000000u;
    const std::uint32_t lsb = (rebased >> 13) & 1u;
    return static_cast<std::uint16_t>(sign | ((rebased + 0x0fffu + lsb) >> 13));
  }
  // fp16 subnormal (or zero): the result counts units of 2^-24. The float is
  // significand * 2^(exp - 150), so the shift from significand to 2^-24 units is 126 - exp.
  const std::uint32_t exp = mag >> 23;
  if (exp < 101) return static_cast<std::uint16_t>(sign);  // below 2^-26: rounds to zero
  const std::uint32_t significand = (mag & 0x007fffffu) | 0x00800000u;
  const unsigned shift = 126u - exp;
  // A carry to 0x400 is exactly the smallest normal's encoding.
  return static_cast<std::uint16_t>(sign | shift_right_round_even(significand, shift));
}

GRIDFUZZ_FORMATS_HD inline float fp16_bits_to_float(std::uint16_t h) {
  const std::uint32_t sign = (static_cast<std::uint32_t>(h) & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1fu;
  std::uint32_t mant = h & 0x03ffu;
  if (exp == 0x1fu) return bits_to_float(sign | 0x7f800000u | (mant << 13));  // inf / NaN
  if (exp != 0) return bits_to_float(sign | ((exp + 112u) << 23) | (mant << 13));
  if (mant == 0) return bits_to_float(sign);
  // Subnormal: mant * 2^-24. Normalise until the implicit bit (0x400) appears.
  std::uint32_t float_exp = 113;  // 2^-14 as a biased float exponent, before normalising
  while ((mant & 0x0400u) == 0) {
    mant <<= 1;
    --float_exp;
  }
  return bits_to_float(sign | (float_exp << 23) | ((mant & 0x03ffu) << 13));
}

}  // namespace gridfuzz::formats::affine
