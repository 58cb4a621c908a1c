#pragma once
// fp16/bf16 helpers shared by the kernels: conversions and packing two values for mma operands
// and paired stores.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

namespace gridfuzz::affine {

template <class T> struct Element;

template <> struct Element<__half> {
  __device__ __forceinline__ static float to_float(__half v) { return __half2float(v); }
  __device__ __forceinline__ static __half from_float(float v) { return __float2half_rn(v); }
  __device__ __forceinline__ static std::uint32_t pack2(float lo, float hi) {
    const __half2 h = __floats2half2_rn(lo, hi);
    return *reinterpret_cast<const std::uint32_t*>(&h);
  }
};

template <> struct Element<__nv_bfloat16> {
  __device__ __forceinline__ static float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }
  __device__ __forceinline__ static __nv_bfloat16 from_float(float v) { return __float2bfloat16_rn(v); }
  __device__ __forceinline__ static std::uint32_t pack2(float lo, float hi) {
    const __nv_bfloat162 h = __floats2bfloat162_rn(lo, hi);
    return *reinterpret_cast<const std::uint32_t*>(&h);
  }
};

template <class T>
__device__ __forceinline__ T load_element(const std::uint16_t* p) {
  return *reinterpret_cast<const T*>(p);
}

}  // namespace gridfuzz::affine
