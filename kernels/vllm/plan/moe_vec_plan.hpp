#pragma once
// What one vLLM GEMV call launches, as upstream's host code computes it, and what the `chunked`
// fix launches instead: ggml_moe_a8_vec (q8_1 quantize, then moe_vec_q: the MoE GEMV) or, for a
// dense shape (MoeCallShape::dense), ggml_mul_mat_vec_a8 (q8_1 quantize, then mul_mat_vec_q). Pure host code:
// plan(), the launcher and the CPU tests read it. Citations are file:line in vllm-gguf-plugin
// 0.0.5's vllm_gguf_plugin/csrc/gguf/ (docs/upstream/vllm-gguf.md).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "../cuda/upstream_kernels.hpp"
#include "quantize_plan.hpp"
#include "call_shape.hpp"         // kernels/gguf/plan: the call shape the GGUF family shares
#include "launch_geometry.hpp"    // kernels/gguf/plan: TokenRange, the upstream index model
#include "gridfuzz/device_limits.hpp"
#include "gridfuzz/index_range.hpp"
#include "gridfuzz/launch_spec.hpp"

namespace gridfuzz::vllm {


// One launch of moe_vec_q or mul_mat_vec_q: its geometry, pointer offsets (elements of each
// buffer) and int args (moe_vec_q: top_k, ncols, nrows, token_stride; mul_mat_vec_q: ncols,
// nrows, nvecs).
struct MoeVecLaunch {
  LaunchSpec spec;
  std::uint64_t q8_offset = 0, ids_offset = 0, dst_offset = 0;
  int top_k = 1, ncols = 0, nrows = 0, token_stride = 0, nvecs = 0;
};

struct MoeVecCall {
  std::vector<QuantizeLaunch> quantize;
  std::vector<MoeVecLaunch> gemv;
  std::vector<IndexRange> indices;  // of both kernels, with the C++ types upstream declares
  std::optional<std::string> host_error;  // the host code cannot run (e.g. its int loop overflows)
};

MoeVecCall moe_vec_call(MoeVecVariant v, const gguf::MoeCallShape& s, const UpstreamConstants& c,
                        const DeviceLimits& limits);

// Token ranges [begin, end) small enough that the upstream call over each is safe: the
// split-batch reference (pairs per piece within grid.z and activation rows within one tile).
std::vector<gguf::TokenRange> moe_vec_reference_pieces(const gguf::MoeCallShape& s, const DeviceLimits& limits);

}  // namespace gridfuzz::vllm
