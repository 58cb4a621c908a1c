#pragma once
// The index arithmetic of the two variants. Legacy kernels compute every offset in int, as
// upstream's pointer math does (x += y*k + m*k*l; strides int); here the wrap is made explicit
// (two's complement through uint32, so it is defined behaviour and really wraps) and the result is
// sign-extended when it is added to a pointer. Fixed kernels compute in int64.
#include <cstdint>

namespace gridfuzz::affine {

struct WrappingInt32Index {
  using type = std::int32_t;
  __device__ __forceinline__ static type of(std::int64_t v) { return static_cast<type>(static_cast<std::uint32_t>(v)); }
  __device__ __forceinline__ static type mul(type a, type b) {
    return static_cast<type>(static_cast<std::uint32_t>(a) * static_cast<std::uint32_t>(b));
  }
  __device__ __forceinline__ static type add(type a, type b) {
    return static_cast<type>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
  }
};

struct Int64Index {
  using type = std::int64_t;
  __device__ __forceinline__ static type of(std::int64_t v) { return v; }
  __device__ __forceinline__ static type mul(type a, type b) { return a * b; }
  __device__ __forceinline__ static type add(type a, type b) { return a + b; }
};

}  // namespace gridfuzz::affine
