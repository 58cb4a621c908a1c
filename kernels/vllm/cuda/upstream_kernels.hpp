#pragma once
// vLLM's GGUF kernels, compiled unmodified from the pinned vllm-gguf-plugin package
// (upstream/manifest.txt) in upstream_kernels.cu: the addresses of the __global__ instantiations
// that upstream's host code launches, for device::Function::from_symbol, and upstream's launch
// constants as its headers define them.
#include <cstdint>
#include <string>
#include <vector>

#include "gridfuzz/gguf/formats.hpp"

namespace gridfuzz::vllm {

// The activation / output dtypes upstream's entry points dispatch (VLLM_DISPATCH_FLOATING_TYPES).
enum class ScalarKind { f32, f16, bf16 };
std::string to_string(ScalarKind k);
std::size_t scalar_bytes(ScalarKind k);

// The weight types vLLM's ggml_moe_a8_vec dispatches that gridfuzz drives: those its GGUF formats
// can fill and check (gridfuzz::gguf::weight_quant_types()).
std::vector<gguf::QuantType> moe_vec_quant_types();

// Where gridfuzz's GGUF block layouts (gguf::quant_traits) differ from upstream's block structs
// (size, QK, QI), one line each: empty when they agree, as the CPU reference requires.
std::vector<std::string> block_layout_differences();

// moe_vec_q<scalar_t, qk, qi, block, vdr, vec_dot> as moe_vec_<type>_q8_1_cuda<scalar_t> launches
// it (the instantiation of each type is cited in upstream_kernels.cu). Throws std::invalid_argument
// for a type upstream does not dispatch there.
const void* moe_vec_kernel(gguf::QuantType t, ScalarKind out);
// mul_mat_vec_q<scalar_t, ...> as mul_mat_vec_<type>_q8_1_cuda<scalar_t> launches it (mmvq.cuh).
const void* mmvq_kernel(gguf::QuantType t, ScalarKind out);
// The MoE MMQ path (ggml_moe_a8, moe.cuh): the weight types it has kernels for, each type's tile
// (MOE_X_<T> token columns, MOE_Y_<T> weight rows, NWARPS_<T> warps per block), and the kernel
// moe_<type><scalar_t, need_check> as ggml_moe_<type>_q8_1_cuda launches it.
struct MmqTile {
  int mmq_x, mmq_y, nwarps;
};
std::vector<gguf::QuantType> moe_mmq_quant_types();
MmqTile moe_mmq_tile(gguf::QuantType t);
const void* moe_mmq_kernel(gguf::QuantType t, ScalarKind out, bool need_check);
// quantize_q8_1<scalar_t> (gguf_kernel.cu): one thread per padded column, one warp per q8_1 block.
const void* quantize_q8_1_kernel(ScalarKind in);

// Upstream's constants, read from its headers when this file was compiled.
struct UpstreamConstants {
  int warp_size;               // cuda_compat.h WARP_SIZE
  int mmv_y;                   // ggml-common.h GGML_CUDA_MMV_Y: output rows per block of moe_vec
  int quantize_block_threads;  // ggml-common.h CUDA_DEQUANTIZE_BLOCK_SIZE: quantize_q8_1's block
  int quantize_grid_x_divisor; // ggml-common.h CUDA_QUANTIZE_BLOCK_SIZE: blocks_x = ceil(padded / it)
  int qk8_1;                   // ggml-common.h QK8_1
};
UpstreamConstants upstream_constants();

}  // namespace gridfuzz::vllm
