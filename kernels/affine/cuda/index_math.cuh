#pragma once
// The index arithmetic of the two variants. Legacy kernels compute every offset in int, as
// upstream's pointer math does (x += y*k + m*k*l; strides int); here the wrap is made explicit
// (two's complement through uint32, so it is defined behaviour and really wraps) and the result is
// sign-extended when it is added to a pointer.
//
// The fixed variant runs WrappingInt32Index too, but only for launches whose host plan proves
// every final offset below 2^31 (plan_fixed), and Int64Index otherwise. Modulo-2^32 arithmetic
// makes that proof sufficient: a final offset is congruent to its true value whatever the
// intermediate products did, so below 2^31 it is exact; and the offsets formed for padding rows
// and then discarded are defined behaviour (plain signed int math would make them UB). On the
// legal shapes this is the very instantiation legacy runs, so fixed costs nothing there.
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
