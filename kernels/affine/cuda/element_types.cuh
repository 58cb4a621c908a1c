#pragma once
// fp16/bf16 helpers shared by the kernels: conversions and packing two values for mma operands
// and paired stores.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

namespace gridfuzz::affine {

template <class T> struct Element;

// Pair types and the exponent trick of the 4-bit qmv: a 16-bit word `kMagic | q` (q < 16 in the low
// mantissa bits) is the value kMagicValue + q, exact in both types, so one LOP3 and one subtraction
// turn two packed nibbles into two activation-type values (no int-to-float conversions, which run
// at a quarter of the arithmetic rate).
template <> struct Element<__half> {
  using Pair = __half2;
  static constexpr std::uint32_t kMagicPair = 0x64006400u;  // 1024.0 twice
  __device__ __forceinline__ static Pair magic_pair() { return __half2half2(__ushort_as_half(0x6400)); }
  __device__ __forceinline__ static float to_float(__half v) { return __half2float(v); }
  __device__ __forceinline__ static __half from_float(float v) { return __float2half_rn(v); }
  __device__ __forceinline__ static std::uint32_t pack2(float lo, float hi) {
    const __half2 h = __floats2half2_rn(lo, hi);
    return *reinterpret_cast<const std::uint32_t*>(&h);
  }
};

template <> struct Element<__nv_bfloat16> {
  using Pair = __nv_bfloat162;
  static constexpr std::uint32_t kMagicPair = 0x43004300u;  // 128.0 twice
  __device__ __forceinline__ static Pair magic_pair() { return __bfloat162bfloat162(__ushort_as_bfloat16(0x4300)); }
  __device__ __forceinline__ static float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }
  __device__ __forceinline__ static __nv_bfloat16 from_float(float v) { return __float2bfloat16_rn(v); }
  __device__ __forceinline__ static std::uint32_t pack2(float lo, float hi) {
    const __nv_bfloat162 h = __floats2bfloat162_rn(lo, hi);
    return *reinterpret_cast<const std::uint32_t*>(&h);
  }
};

// A 32-bit register as a pair of activation values and back.
template <class Pair>
__device__ __forceinline__ Pair as_pair(std::uint32_t bits) {
  Pair p;
  static_assert(sizeof(Pair) == 4);
  __builtin_memcpy(&p, &bits, 4);
  return p;
}

// Eight activation values as four words of pairs ((x0, x1), (x2, x3), ...) regrouped as the pairs
// the nibbles of a 4-bit weight word meet: (x_j, x_{j+4}), j = 0..3 (nibbles j and j+4 of a word
// sit at bits 4j and 16+4j). The staging of qmv's 4-bit path and of qmv_stream.
__device__ __forceinline__ uint4 nibble_pairs(uint4 v) {
  return make_uint4(__byte_perm(v.x, v.z, 0x5410), __byte_perm(v.x, v.z, 0x7632), __byte_perm(v.y, v.w, 0x5410),
                    __byte_perm(v.y, v.w, 0x7632));
}

template <class T>
__device__ __forceinline__ T load_element(const std::uint16_t* p) {
  return *reinterpret_cast<const T*>(p);
}

}  // namespace gridfuzz::affine
