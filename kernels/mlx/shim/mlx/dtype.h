#pragma once
// Stand-in for MLX's mlx/dtype.h (Dtype and the element types it names), enough to compile MLX's
// CUDA quantized host code and dtype_utils.h unmodified (kernels/mlx/shim/README.md).
#include <complex>
#include <cstdint>
#include <ostream>

namespace mlx::core {

struct float16_t {
  std::uint16_t bits;
};
struct bfloat16_t {
  std::uint16_t bits;
};
using complex64_t = std::complex<float>;
using complex128_t = std::complex<double>;

struct Dtype {
  enum class Val { bool_, uint8, uint16, uint32, uint64, int8, int16, int32, int64, float16, float32, float64, bfloat16, complex64 };
  Val val;
  std::uint8_t size;
  constexpr Dtype(Val v, std::uint8_t s) : val(v), size(s) {}
  constexpr operator Val() const { return val; }
};

inline constexpr Dtype bool_{Dtype::Val::bool_, 1};
inline constexpr Dtype uint8{Dtype::Val::uint8, 1};
inline constexpr Dtype uint16{Dtype::Val::uint16, 2};
inline constexpr Dtype uint32{Dtype::Val::uint32, 4};
inline constexpr Dtype uint64{Dtype::Val::uint64, 8};
inline constexpr Dtype int8{Dtype::Val::int8, 1};
inline constexpr Dtype int16{Dtype::Val::int16, 2};
inline constexpr Dtype int32{Dtype::Val::int32, 4};
inline constexpr Dtype int64{Dtype::Val::int64, 8};
inline constexpr Dtype float16{Dtype::Val::float16, 2};
inline constexpr Dtype float32{Dtype::Val::float32, 4};
inline constexpr Dtype float64{Dtype::Val::float64, 8};
inline constexpr Dtype bfloat16{Dtype::Val::bfloat16, 2};
inline constexpr Dtype complex64{Dtype::Val::complex64, 8};

constexpr bool operator==(Dtype a, Dtype b) { return a.val == b.val; }
constexpr bool operator!=(Dtype a, Dtype b) { return a.val != b.val; }

const char* dtype_to_string(Dtype d);  // defined in kernels/mlx/upstream/standins.cpp
inline std::ostream& operator<<(std::ostream& os, Dtype d) { return os << dtype_to_string(d); }

}  // namespace mlx::core
