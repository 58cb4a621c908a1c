#include "upstream_call.hpp"

#include "common.cuh"
#include "mmq.cuh"
#include "mmvq.cuh"
#include "quantize.cuh"
#include "pools.hpp"

namespace gridfuzz::llamacpp {
namespace {

// ggml_new_tensor's layout (ggml.c, ggml_new_tensor_impl): nb[0] = type size, nb[1] = nb[0] *
// ne[0] / block size, nb[i] = nb[i-1] * ne[i-1].
ggml_tensor tensor(ggml_type type, std::int64_t ne0, std::int64_t ne1, std::int64_t ne2, const void* data) {
  ggml_tensor t{};
  t.type = type;
  t.buffer = nullptr;
  t.ne[0] = ne0;
  t.ne[1] = ne1;
  t.ne[2] = ne2;
  t.ne[3] = 1;
  t.nb[0] = ggml_type_size(type);
  t.nb[1] = t.nb[0] * (ne0 / ggml_blck_size(type));
  for (int i = 2; i < GGML_MAX_DIMS; ++i) t.nb[i] = t.nb[i - 1] * t.ne[i - 1];
  t.data = const_cast<void*>(data);
  return t;
}

}  // namespace

void call_upstream(Entry entry, const MatmulCall& c, cudaStream_t stream) {
  const auto wtype = static_cast<ggml_type>(c.ggml_type);
  ggml_tensor src0 = tensor(wtype, c.cols, c.rows, c.experts, c.weights);
  ggml_tensor src1, dst, ids;
  if (c.with_ids) {
    src1 = tensor(GGML_TYPE_F32, c.cols, c.src1_rows_per_token, c.tokens, c.x);
    ids = tensor(GGML_TYPE_I32, c.top_k, c.tokens, 1, c.ids);
    dst = tensor(GGML_TYPE_F32, c.rows, c.top_k, c.tokens, c.dst);
  } else {
    src1 = tensor(GGML_TYPE_F32, c.cols, c.vectors, 1, c.x);
    dst = tensor(GGML_TYPE_F32, c.rows, c.vectors, 1, c.dst);
  }
  dst.src[0] = &src0;
  dst.src[1] = &src1;
  if (c.with_ids) dst.src[2] = &ids;
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  ggml_backend_cuda_context ctx(device);
  // A null stream slot makes the context create a stream of its own (common.cuh:1519-1525): the
  // legacy stream is named by its handle instead.
  ctx.streams[device][0] = stream ? stream : cudaStreamLegacy;
  // The pool the context's pool() hands out (common.cuh:1554-1558 makes one only where the slot is
  // empty); destroyed with the context at the end of this call.
  ctx.pools[device][0] = make_pool(c.pool, device, ctx.streams[device][0]);
  const ggml_tensor* id_tensor = c.with_ids ? &ids : nullptr;
  if (entry == Entry::mmvq)
    ggml_cuda_mul_mat_vec_q(ctx, &src0, &src1, id_tensor, &dst);
  else
    ggml_cuda_mul_mat_q(ctx, &src0, &src1, id_tensor, &dst);
}

void quantize_q8_1_upstream(const float* x, void* q8_1, std::int64_t cols, std::int64_t rows, cudaStream_t stream) {
  quantize_row_q8_1_cuda(x, nullptr, q8_1, GGML_TYPE_Q8_0, cols, cols, cols * rows, cols * rows, cols, rows, 1, 1,
                         stream ? stream : cudaStreamLegacy);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace gridfuzz::llamacpp
