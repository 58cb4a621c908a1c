#pragma once
// The GGUF family is written in the words of the formats library (formats/, gridfuzz::formats,
// installed for plugins too): its kernels, plans and adapters, and the vLLM and llama.cpp families
// after them, say QuantType, block_q4_K, quantize_row_q8_1 or gguf::QuantType. These
// using-declarations make exactly the names they use members of gridfuzz::gguf, so that code reads
// as before the formats became a library, while each name is defined once, in
// gridfuzz::formats::gguf. A name the family starts to use is added here.
#include "gridfuzz/formats/gguf/blocks.hpp"
#include "gridfuzz/formats/gguf/dequantize.hpp"
#include "gridfuzz/formats/gguf/fp16.hpp"
#include "gridfuzz/formats/gguf/q8_1_layout.hpp"
#include "gridfuzz/formats/gguf/quant_type.hpp"
#include "gridfuzz/formats/gguf/quant_type_names.hpp"
#include "gridfuzz/formats/gguf/quantize.hpp"
#include "gridfuzz/formats/gguf/quantize_q8_1.hpp"
#include "gridfuzz/formats/gguf/reference_dot.hpp"
#include "gridfuzz/formats/gguf/scale_packing.hpp"

namespace gridfuzz::gguf {

// quant_type.hpp, quant_type_names.hpp: the types and their constants
using formats::gguf::QuantType;
using formats::gguf::QuantTraits;
using formats::gguf::quant_traits;
using formats::gguf::kHasCodebookTypes;
using formats::gguf::is_codebook_type;
using formats::gguf::lanes_per_block;
using formats::gguf::blocks_per_warp;
using formats::gguf::quant_row_bytes;
using formats::gguf::weight_quant_types;
using formats::gguf::to_string;
using formats::gguf::parse_quant_type;
using formats::gguf::quant_type_list;

// blocks.hpp, fp16.hpp, scale_packing.hpp: what the CUDA kernels read
using formats::gguf::block_q4_0;
using formats::gguf::block_q4_1;
using formats::gguf::block_q5_0;
using formats::gguf::block_q5_1;
using formats::gguf::block_q8_0;
using formats::gguf::block_q8_1;
using formats::gguf::block_q2_K;
using formats::gguf::block_q3_K;
using formats::gguf::block_q4_K;
using formats::gguf::block_q5_K;
using formats::gguf::block_q6_K;
using formats::gguf::block_iq4_nl;
using formats::gguf::block_iq4_xs;
using formats::gguf::block_iq2_xxs;
using formats::gguf::block_iq2_xs;
using formats::gguf::block_iq2_s;
using formats::gguf::block_iq3_xxs;
using formats::gguf::block_iq3_s;
using formats::gguf::block_iq1_s;
using formats::gguf::block_iq1_m;
using formats::gguf::iq4nl_value;
using formats::gguf::float_to_half_bits;
using formats::gguf::half_bits_to_float;
using formats::gguf::decode_scale_min_k4;
using formats::gguf::decode_scale_q3_K;
using formats::gguf::decode_scale_iq4_xs;

// q8_1_layout.hpp, quantize_q8_1.hpp, quantize.hpp: the activation rows and the weights' inputs
using formats::gguf::q8_1_padded_cols;
using formats::gguf::q8_1_blocks_per_row;
using formats::gguf::q8_1_row_stride_int32;
using formats::gguf::quantize_row_q8_1;
using formats::gguf::quantize_block_q8_1;
using formats::gguf::quantize_row;

// reference_dot.hpp: the CPU reference and its tolerances
using formats::gguf::reference_dot;
using formats::gguf::reference_dot_via_q8_1_sums;
using formats::gguf::folds_offset_through_q8_1_sum;
using formats::gguf::gpu_dot_fp32_relative_bound;
using formats::gguf::gpu_dot_fp32_serial_bound;
using formats::gguf::gpu_dot_tolerance;
using formats::gguf::gpu_dot_tolerance_via_q8_1_sums;
using formats::gguf::fp16_scale_product_error_bound;
using formats::gguf::fast_division_q8_1_quant_ambiguous;
using formats::gguf::fast_division_q8_1_scale_ambiguous;
using formats::gguf::fast_division_q8_1_error_bound;
using formats::gguf::FastDivisionQ8_1Row;
using formats::gguf::ElementDot;

}  // namespace gridfuzz::gguf
