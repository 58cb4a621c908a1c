#pragma once
// The element types an affine quantized matmul sees: activations in f32/f16/bf16, scales and
// biases stored in the activation's 16-bit type (MLX stores them in w's dtype).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gridfuzz::formats::affine {

enum class Dtype { float32, float16, bfloat16 };

std::string to_string(Dtype d);                        // "f32", "f16", "bf16"
std::optional<Dtype> parse_dtype(std::string_view s);  // accepts the to_string names
std::size_t dtype_bytes(Dtype d);

// Scales and biases are held as 16-bit patterns, so only the 16-bit types can store them.
bool is_16bit(Dtype d);

// Round a float to a 16-bit dtype (nearest, ties to even) and back; identity for float32.
std::uint16_t to_16bit_pattern(float f, Dtype d);  // requires is_16bit(d)
float from_16bit_pattern(std::uint16_t bits, Dtype d);  // requires is_16bit(d)
float round_to_dtype(float f, Dtype d);

}  // namespace gridfuzz::formats::affine
