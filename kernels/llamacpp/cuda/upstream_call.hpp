#pragma once
// One call of llama.cpp's own host entry points, ggml_cuda_mul_mat_vec_q (mmvq.cu:1421) and
// ggml_cuda_mul_mat_q (mmq.cu:135), on ggml_tensor descriptors that point at gridfuzz's buffers
// (built in upstream_call.cu as ggml_new_tensor would lay them out). Upstream's host code then
// quantizes, picks the kernels and their geometry and launches them itself: gridfuzz watches
// those launches (gridfuzz/device/launch_recorder.hpp). Plain types only: this header does not
// expose upstream's.
#include <cuda_runtime_api.h>

#include <cstdint>

namespace gridfuzz::llamacpp {

enum class Entry { mmvq, mmq };

// The memory pool behind the call's backend context (shim/pools.hpp): `exact` allocates exactly
// the bytes upstream asks for; `ggml_default` is the pool ggml itself picks on this device (VMM
// where supported, else legacy: ggml-cuda.cu:679-686); `vmm` and `legacy` name one of ggml's two.
enum class Pool { exact, ggml_default, vmm, legacy };

struct MatmulCall {
  std::uint32_t ggml_type = 2;  // the weights' ggml_type id (gguf::QuantType has the same values)
  std::int64_t cols = 0;        // ne00 = ne10: the reduction length
  std::int64_t rows = 0;        // ne01: output rows per matrix
  std::int64_t experts = 1;     // ne02 (1 without ids)
  // Without ids (MUL_MAT): src1 [cols, vectors], dst [rows, vectors].
  // With ids (MUL_MAT_ID): src1 [cols, src1_rows_per_token (1 or top_k), tokens],
  // ids [top_k, tokens], dst [rows, top_k, tokens].
  bool with_ids = false;
  std::int64_t vectors = 1;
  std::int64_t tokens = 1, top_k = 1, src1_rows_per_token = 1;
  const void* weights = nullptr;
  const float* x = nullptr;
  const std::int32_t* ids = nullptr;
  float* dst = nullptr;
  Pool pool = Pool::exact;  // a fresh pool for this call
};

// Runs the entry point on `stream` (put into the ggml backend context as its stream 0).
// Upstream's GGML_ASSERT / CUDA_CHECK failures end the process (shim/ggml_shim.cu).
void call_upstream(Entry entry, const MatmulCall& call, cudaStream_t stream);

// Upstream's activation quantizer alone (quantize_row_q8_1_cuda, quantize.cu:558, as mmvq.cu:1506
// calls it): `rows` rows of `cols` f32 values (cols a multiple of 32) into rows * cols / 32
// block_q8_1 (36 bytes each) at q8_1. For comparing its q8_1 with gridfuzz's CPU quantizer.
void quantize_q8_1_upstream(const float* x, void* q8_1, std::int64_t cols, std::int64_t rows, cudaStream_t stream);

}  // namespace gridfuzz::llamacpp
