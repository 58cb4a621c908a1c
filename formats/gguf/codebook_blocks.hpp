#pragma once
// Private to formats/gguf: the codebook i-quants' block decoders (dequantize_codebook.cpp), shared by the
// dequantizer, the quantizer and the reference's offset terms. Only with GRIDFUZZ_GGUF_IQ.
#include <cstdint>

#include "gridfuzz/formats/gguf/blocks.hpp"
#include "gridfuzz/formats/gguf/quant_type.hpp"

namespace gridfuzz::formats::gguf::detail {

// The 256 values of one block of codebook type t; false (nothing written) for any other type.
bool dequantize_codebook_block(QuantType t, const void* block, double* y);

// iq1_m's half super-scale, gathered from bits 12-15 of its four scale words.
std::uint16_t iq1_m_super_scale_bits(const block_iq1_m& b);
// iq1_m's 3-bit scale of 16-value group ib16 (0..15).
int iq1_m_scale(const block_iq1_m& b, int ib16);

}  // namespace gridfuzz::formats::gguf::detail
