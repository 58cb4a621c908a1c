#pragma once
// The shape of one GGUF MoE GEMV production call, read from a case's params (pure host code).
//
// vLLM's ggml_moe_a8_vec (docs/KERNELS.md, "vLLM ggml_moe_a8_vec") quantizes the activation rows to
// q8_1, then runs moe_vec with grid.z = tokens * top_k. The down projection reuses it with
// top_k = 1 over the tokens * top_k activation rows of the gate/up output, indexing the flattened
// [tokens, top_k] expert ids with the pair index
// (docs/KERNELS.md, "vLLM MoE dispatch", "Split-batch reference"), so its grid.z is tokens * top_k
// as well.
#include <cstdint>
#include <string>

#include "gridfuzz/gguf/formats.hpp"
#include "gridfuzz/params.hpp"

namespace gridfuzz::gguf {

enum class OutDtype { f32, bf16 };
enum class Projection { gate_up, down };

struct MoeCallShape {
  std::uint64_t tokens = 1, top_k = 1, experts = 1;
  std::uint64_t rows = 1;   // output rows per pair (nrows)
  std::uint64_t cols = 32;  // reduction length (ncols = hidden for gate/up)
  QuantType quant = QuantType::q4_0;
  OutDtype dtype = OutDtype::f32;
  Projection proj = Projection::gate_up;
  bool dense = false;       // mmvq: one weight matrix, no expert ids, one output row per vector

  // Output rows of the call: one per (token, slot) pair. Also the legacy grid.z.
  std::uint64_t pairs() const { return tokens * top_k; }
  // The top_k the kernel is called with: 1 for the down projection and for mmvq.
  std::uint64_t kernel_top_k() const { return proj == Projection::down || dense ? 1 : top_k; }
  // Activation rows quantized to q8_1: tokens (gate/up, mmvq) or tokens * top_k (down).
  std::uint64_t activation_rows() const { return proj == Projection::down ? pairs() : tokens; }
  std::uint64_t blocks_per_row() const { return cols / quant_traits(quant).qk; }
  std::uint64_t weight_row_bytes() const { return quant_row_bytes(quant, cols); }
  std::uint64_t weight_bytes() const { return (dense ? 1 : experts) * rows * weight_row_bytes(); }
  std::uint64_t token_stride() const { return q8_1_row_stride_int32(cols); }  // int32 units
  std::uint64_t q8_1_words() const { return activation_rows() * token_stride(); }
  std::uint64_t out_bytes_per_value() const { return dtype == OutDtype::f32 ? 4 : 2; }
};

// Reads tokens/top_k/experts/rows/cols/quant/dtype/proj (moe_vec) or nvecs/rows/cols/quant/dtype
// (mmvq, dense = true: nvecs is stored as tokens). Throws std::invalid_argument.
MoeCallShape moe_shape_from(const Params& p);
MoeCallShape mmvq_shape_from(const Params& p);

// Empty when the shape is valid: cols a multiple of the type's block size, top_k <= experts,
// a weight type (not q8_1).
std::string moe_shape_problem(const MoeCallShape& s);

std::string to_string(OutDtype d);
std::string to_string(Projection p);

}  // namespace gridfuzz::gguf
