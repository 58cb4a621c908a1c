#include "gridfuzz/formats/affine/dtype.hpp"

#include <stdexcept>

#include "gridfuzz/formats/affine/half_types.hpp"

namespace gridfuzz::formats::affine {

std::string to_string(Dtype d) {
  switch (d) {
    case Dtype::float32: return "f32";
    case Dtype::float16: return "f16";
    case Dtype::bfloat16: return "bf16";
  }
  return "?";
}

std::optional<Dtype> parse_dtype(std::string_view s) {
  for (Dtype d : {Dtype::float32, Dtype::float16, Dtype::bfloat16}) {
    if (s == to_string(d)) return d;
  }
  return std::nullopt;
}

std::size_t dtype_bytes(Dtype d) { return d == Dtype::float32 ? 4 : 2; }

bool is_16bit(Dtype d) { return d == Dtype::float16 || d == Dtype::bfloat16; }

std::uint16_t to_16bit_pattern(float f, Dtype d) {
  switch (d) {
    case Dtype::float16: return float_to_fp16_bits(f);
    case Dtype::bfloat16: return float_to_bf16_bits(f);
    case Dtype::float32: break;
  }
  throw std::invalid_argument("to_16bit_pattern: " + to_string(d) + " is not a 16-bit dtype");
}

float from_16bit_pattern(std::uint16_t bits, Dtype d) {
  switch (d) {
    case Dtype::float16: return fp16_bits_to_float(bits);
    case Dtype::bfloat16: return bf16_bits_to_float(bits);
    case Dtype::float32: break;
  }
  throw std::invalid_argument("from_16bit_pattern: " + to_string(d) + " is not a 16-bit dtype");
}

float round_to_dtype(float f, Dtype d) {
  return d == Dtype::float32 ? f : from_16bit_pattern(to_16bit_pattern(f, d), d);
}

}  // namespace gridfuzz::formats::affine
