#pragma once
// The affine family is written in the words of the formats library (formats/, gridfuzz::formats,
// installed for plugins too): its kernels, plans and adapters, and the MLX family after them, say
// Dtype, QuantizedMatrix, unpack_element or affine::Dtype. These using-declarations make exactly
// the names they use members of gridfuzz::affine, so that code reads as before the formats became
// a library, while each name is defined once, in gridfuzz::formats::affine. A name the family
// starts to use is added here.
#include "gridfuzz/formats/affine/bit_packing.hpp"
#include "gridfuzz/formats/affine/dtype.hpp"
#include "gridfuzz/formats/affine/quantized_matrix.hpp"
#include "gridfuzz/formats/affine/reference_matmul.hpp"

namespace gridfuzz::affine {

// dtype.hpp: activations, scales and biases
using formats::affine::Dtype;
using formats::affine::to_string;
using formats::affine::parse_dtype;
using formats::affine::dtype_bytes;
using formats::affine::is_16bit;
using formats::affine::to_16bit_pattern;
using formats::affine::from_16bit_pattern;

// bit_packing.hpp, quantized_matrix.hpp: the weights as the kernels read them
using formats::affine::unpack_element;
using formats::affine::QuantizedMatrix;

// reference_matmul.hpp: the CPU reference
using formats::affine::ActivationView;
using formats::affine::reference_dot;
using formats::affine::reference_abs_dot;

}  // namespace gridfuzz::affine
