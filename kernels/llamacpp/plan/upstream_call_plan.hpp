#pragma once
// What one call of llama.cpp's host entry points launches, as its host code computes it: the
// plan (gridfuzz's prediction) that the runner compares with the launches recorded from the real
// call (gridfuzz/device/plan_vs_recorded.hpp). Pure host code. Citations are file:line in
// llama-cpp-python 0.3.36's vendor/llama.cpp/ggml/src/ggml-cuda/ (docs/upstream/llama-cpp.md).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "call_shape.hpp"  // kernels/gguf/plan: the GGUF family's call shape
#include "gridfuzz/device_limits.hpp"
#include "gridfuzz/index_range.hpp"
#include "gridfuzz/launch_spec.hpp"

namespace gridfuzz::llamacpp {

// ggml's two matmul ops: MUL_MAT (one weight matrix; `dense` in gguf::MoeCallShape) and
// MUL_MAT_ID (a bank of expert matrices picked per token by ids).
struct UpstreamCallPlan {
  std::vector<LaunchSpec> launches;
  // Set when upstream's host code stops before launching (a GGML_ASSERT it reaches first): the
  // assertion as upstream prints it, with file:line.
  std::optional<std::string> host_error;
  // Index expressions of the kernels, with the type upstream computes them in.
  std::vector<IndexRange> indices;
};

// The weight types gridfuzz builds llama.cpp's kernels for (kernels/llamacpp/CMakeLists.txt).
std::vector<gguf::QuantType> llamacpp_quant_types();

// The constants of one type as current llama.cpp has them (ggml-common.h QK/QI, vecdotq.cuh VDR).
struct TypeConstants {
  int qk = 0, qi = 0, vdr_mmvq = 0;
};
TypeConstants type_constants(gguf::QuantType t);

// MATRIX_ROW_PADDING (common.cuh:186): the q8_1 rows of src1 are padded to a multiple of it.
inline constexpr std::int64_t kMatrixRowPadding = 512;
std::int64_t padded_cols(std::int64_t cols);

// ggml_cuda_mul_mat_vec_q (mmvq.cu:1421-1536) on this shape, on an NVIDIA device of `limits`.
UpstreamCallPlan mmvq_plan(const gguf::MoeCallShape& s, const DeviceLimits& limits);

}  // namespace gridfuzz::llamacpp

namespace gridfuzz::llamacpp {

// The MMQ configuration upstream's switch picks (mmq.cuh:1486-1560 over mmq-config-ampere.cuh).
struct MmqConfig {
  int I = 128, J = 0, nthreads = 256;
  bool fallback = false;     // ne01 % 128 != 0 (mmq.cu:179)
  std::uint64_t nbytes_shared = 0;
};

// True for the types whose MMQ q8_1 activation blocks keep their scale d in fp32
// (MMQ_Q8_1_DS_LAYOUT_D4: q8_0, q6_K, iq4_xs; mmq.cuh:60-100); DS4 (q4_0, q4_K) stores d and the
// sum as half2, as a q8_1 block does.
bool mmq_activation_scale_is_fp32(gguf::QuantType t);

// mul_mat_q_switch_J's choice for `ncols_opt` columns (tokens), or J = 0 when no J fits.
MmqConfig mmq_config(gguf::QuantType t, std::uint64_t rows, std::uint64_t ncols_opt, const DeviceLimits& limits);

// ggml_cuda_mul_mat_q (mmq.cu:135-317) on this shape, on an NVIDIA device of `limits` with
// Turing-or-newer MMA (cc >= 7.5) that is not a Blackwell (the Ampere MMQ table).
UpstreamCallPlan mmq_plan(const gguf::MoeCallShape& s, const DeviceLimits& limits);

}  // namespace gridfuzz::llamacpp
