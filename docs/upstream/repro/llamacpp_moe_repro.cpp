// llama.cpp CUDA MUL_MAT_ID (MoE) reproductions for docs/upstream/llama-cpp.md, findings 1-5,
// through ggml's public API only: one ggml_mul_mat_id node on the CUDA backend
// (ggml_backend_cuda_init), the graph computed as llama.cpp computes it. No gridfuzz code.
//
// Pinned: llama-cpp-python 0.3.36 (PyPI sdist), its vendor/llama.cpp/ggml, built with
// -DGGML_CUDA=ON (run-on-device.sh does it: sm_90, FlashAttention off, which only empties the
// FlashAttention kernels). Citations are ggml/src/ggml-cuda/FILE:LINE of that tree.
// Build (run-on-device.sh does it): g++ -O2 -std=c++17 llamacpp_moe_repro.cpp -I<ggml>/include
//   -I<cuda>/include, linked with libggml-base, libggml-cuda and libcuda from that ggml build.
// Run one case per process (a CUDA fault or GGML_ASSERT ends the process, as in llama.cpp):
//   f1 TOKENS   gate/up (src1 broadcast), 8 experts 256x256 q4_0, top_k 2. mmid.cu:147
//               GGML_ASSERT(nbytes_shared <= smpbo): bug present: 58112 "ok", 58113 aborts with
//               that assertion (exit status 134). Fixed: both "ok".
//   f2 TOKENS   down projection (src1 [256, 8, TOKENS]), 16 experts of 7168 x 256 q4_0, top_k 8.
//               mmq.cuh:467-472/517-522 dst[ids_dst[j]*stride + i] in int: bug present: 37449 "ok",
//               37450 "CUDA error: an illegal memory access" and abort, or "WRONG" samples
//               (predicted from the index; never observed at 37450). Fixed: both "ok".
//   f3 plan | f3 TOKENS
//               gate/up, DeepSeek-V3's hidden 7168, 256 experts of 256 rows q4_0, top_k 8, one
//               token on expert 255. The q8_1 scratch gets no tail padding for ne11 = 1
//               (mmq.cu:257-258) and the tile loader reads up to J rows from a tile's start
//               (mmq.cuh:919-924). `plan` computes, from the VMM pool's own arithmetic
//               (ggml-cuda.cu:563-592: 128-byte rounding, granules mapped at the pool's end), a
//               token count whose scratch ends within 1008 bytes of the pool's mapped end and a
//               control whose scratch ends more than 18432 bytes below it. Bug present: the first
//               aborts with an illegal memory access, the control prints "ok"; fixed: both "ok".
//               (Elsewhere llama.cpp's pool slack hides the read: upstream issue #27792.)
//   f4          64 tokens, 16 experts, top_k 2, gate/up; every even token names the same expert in
//               both slots. mmid.cu compacts one row per expert and token: bug present: "WRONG",
//               NaN (unwritten) outputs in the repeated slots; fixed (PR #26294): "ok".
//   f5 TOKENS   4096 experts of 2048 x 7168 q4_0, top_k 8, gate/up (a bank of 33.8 GB): the stream-k
//               k-block total nsamples*nchannels*ntx*nty*blocks (mmq.cuh:1075) is 32-bit and the
//               host guard mmq.cuh:1454 multiplies in 32 bits too. Bug present: 2000 "ok", 40000
//               "CUDA error: an illegal memory access" and abort. Fixed: both "ok".
// Output: one line "RESULT <case> tokens=N: ok|WRONG ..." when the call returns; a fault or
// assertion ends the process with ggml's own message before it.
#include <cuda.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cuda.h"
#include "ggml.h"

namespace {

struct Shape {
  int64_t experts, rows, cols, top_k, tokens;
  bool broadcast;       // gate/up: src1 [cols, 1, tokens]; down: src1 [cols, top_k, tokens]
  bool fill_weights;    // quantize random weights on the CPU (checkable) or memset (large banks)
};

uint64_t rng_state = 0x9E3779B97F4A7C15ull;
float next_uniform() {  // xorshift64*, in [-1, 1)
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return static_cast<float>((rng_state * 2685821657736338717ull) >> 40) / static_cast<float>(1 << 23) - 1.0f;
}

struct Result {
  int64_t checked = 0, wrong = 0, nan = 0;
  double worst = 0;
};

// One MUL_MAT_ID on the CUDA backend; `ids_of(token, slot)` gives the expert. With
// shape.fill_weights, `samples` outputs are checked against a float64 CPU dot on the dequantized
// weights (the activations are quantized to q8_1 on the GPU, so the tolerance is 2% of sum |w x|).
Result run(const Shape& s, int (*ids_of)(int64_t, int64_t, int64_t), int samples) {
  ggml_backend_t backend = ggml_backend_cuda_init(0);
  if (!backend) {
    std::fprintf(stderr, "no CUDA backend\n");
    std::exit(2);
  }
  ggml_init_params params = {ggml_tensor_overhead() * 8 + ggml_graph_overhead(), nullptr, true};
  ggml_context* ctx = ggml_init(params);
  ggml_tensor* w = ggml_new_tensor_3d(ctx, GGML_TYPE_Q4_0, s.cols, s.rows, s.experts);
  ggml_tensor* x = ggml_new_tensor_3d(ctx, GGML_TYPE_F32, s.cols, s.broadcast ? 1 : s.top_k, s.tokens);
  ggml_tensor* ids = ggml_new_tensor_2d(ctx, GGML_TYPE_I32, s.top_k, s.tokens);
  ggml_tensor* out = ggml_mul_mat_id(ctx, w, x, ids);
  ggml_cgraph* graph = ggml_new_graph(ctx);
  ggml_build_forward_expand(graph, out);
  ggml_backend_buffer_t buf = ggml_backend_alloc_ctx_tensors(ctx, backend);
  if (!buf) {
    std::fprintf(stderr, "allocation failed\n");
    std::exit(2);
  }

  std::vector<uint8_t> wq;
  if (s.fill_weights) {
    std::vector<float> wf(static_cast<size_t>(s.experts * s.rows * s.cols));
    for (float& v : wf) v = next_uniform();
    wq.resize(ggml_nbytes(w));
    ggml_quantize_chunk(GGML_TYPE_Q4_0, wf.data(), wq.data(), 0, s.experts * s.rows, s.cols, nullptr);
    ggml_backend_tensor_set(w, wq.data(), 0, wq.size());
  } else {
    ggml_backend_tensor_memset(w, 0x11, 0, ggml_nbytes(w));  // q4_0 blocks: d = 0x1111 (fp16), quants 1
  }
  std::vector<float> xf(static_cast<size_t>(ggml_nelements(x)));
  for (float& v : xf) v = next_uniform();
  ggml_backend_tensor_set(x, xf.data(), 0, xf.size() * sizeof(float));
  std::vector<int32_t> idv(static_cast<size_t>(s.top_k * s.tokens));
  for (int64_t t = 0; t < s.tokens; ++t)
    for (int64_t k = 0; k < s.top_k; ++k) idv[t * s.top_k + k] = ids_of(t, k, s.experts);
  ggml_backend_tensor_set(ids, idv.data(), 0, idv.size() * sizeof(int32_t));
  ggml_backend_tensor_memset(out, 0xFF, 0, ggml_nbytes(out));  // NaN: an unwritten output stays NaN

  if (ggml_backend_graph_compute(backend, graph) != GGML_STATUS_SUCCESS) {
    std::fprintf(stderr, "graph compute failed\n");
    std::exit(3);
  }
  ggml_backend_synchronize(backend);  // a kernel fault is reported here (CUDA_CHECK -> abort)

  Result r;
  const int64_t n_out = s.rows * s.top_k * s.tokens;
  std::vector<float> o(static_cast<size_t>(n_out));
  ggml_backend_tensor_get(out, o.data(), 0, o.size() * sizeof(float));
  for (float v : o) r.nan += std::isnan(v) ? 1 : 0;
  if (s.fill_weights) {
    const auto* traits = ggml_get_type_traits(GGML_TYPE_Q4_0);
    const size_t row_bytes = ggml_row_size(GGML_TYPE_Q4_0, s.cols);
    std::vector<float> wrow(static_cast<size_t>(s.cols));
    for (int i = 0; i < samples; ++i) {
      // Half the samples in the last tokens (where an int index wraps first), half anywhere.
      const int64_t t = i % 2 ? s.tokens - 1 - (i / 2) % std::min<int64_t>(s.tokens, 64)
                              : static_cast<int64_t>((next_uniform() + 1) / 2 * s.tokens) % s.tokens;
      const int64_t k = static_cast<int64_t>((next_uniform() + 1) / 2 * s.top_k) % s.top_k;
      const int64_t row = i % 3 == 0 ? s.rows - 1 : static_cast<int64_t>((next_uniform() + 1) / 2 * s.rows) % s.rows;
      const int64_t e = idv[t * s.top_k + k];
      traits->to_float(wq.data() + (e * s.rows + row) * row_bytes, wrow.data(), s.cols);
      const float* xv = xf.data() + (s.broadcast ? t * s.cols : (t * s.top_k + k) * s.cols);
      double dot = 0, mag = 0;
      for (int64_t c = 0; c < s.cols; ++c) {
        dot += static_cast<double>(wrow[c]) * xv[c];
        mag += std::fabs(static_cast<double>(wrow[c]) * xv[c]);
      }
      const double got = o[static_cast<size_t>((t * s.top_k + k) * s.rows + row)];
      const double err = std::fabs(got - dot);
      ++r.checked;
      if (!(err <= 0.02 * mag + 1e-3)) ++r.wrong;
      if (std::isfinite(err) && mag > 0) r.worst = std::max(r.worst, err / mag);
    }
  }
  ggml_backend_buffer_free(buf);
  ggml_free(ctx);
  ggml_backend_free(backend);
  return r;
}

void report(const char* name, int64_t tokens, const Result& r) {
  const bool ok = r.wrong == 0 && r.nan == 0;
  std::printf("RESULT %s tokens=%lld: %s (outputs NaN/unwritten: %lld; CPU samples wrong: %lld of %lld; worst err/sum|wx| %.3g)\n",
              name, static_cast<long long>(tokens), ok ? "ok" : "WRONG", static_cast<long long>(r.nan),
              static_cast<long long>(r.wrong), static_cast<long long>(r.checked), r.worst);
}

// Distinct experts per token, as a top-k router makes them; the highest expert is used by token 0.
int distinct_ids(int64_t t, int64_t k, int64_t experts) {
  if (t == 0 && k == 0) return static_cast<int>(experts - 1);
  return static_cast<int>((t * 7 + k) % (experts - 1));  // top_k <= experts - 1 consecutive values: distinct
}
// f3: token 0 alone on expert 255, every other pair on 0..254.
int f3_ids(int64_t t, int64_t k, int64_t experts) {
  if (t == 0 && k == 0) return static_cast<int>(experts - 1);
  return static_cast<int>((t * 8 + k) % (experts - 1));
}
// f4: even tokens repeat one expert in both slots.
int repeated_ids(int64_t t, int64_t k, int64_t experts) {
  return static_cast<int>(t % 2 == 0 ? t % experts : (t + k) % experts);
}

// f3: the VMM pool's state after ggml_cuda_mul_mat_q's allocations, in a fresh process:
// ids_src1, ids_dst (ne_get_rows int32 each), expert_bounds (experts + 1 int32), then the q8_1
// scratch (mmq.cu:232-258), each rounded to 128 bytes (ggml-cuda.cu:565-566), the pool mapped in
// whole granules from its start (ggml-cuda.cu:570-592).
struct PoolEnd {
  uint64_t scratch_end, mapped_end;
};
PoolEnd f3_pool(int64_t tokens, int64_t experts, int64_t cols, int64_t top_k, uint64_t granularity) {
  auto r128 = [](uint64_t v) { return (v + 127) / 128 * 128; };
  const uint64_t pairs = static_cast<uint64_t>(tokens * top_k);
  const uint64_t padded = (static_cast<uint64_t>(cols) + 511) / 512 * 512;  // MATRIX_ROW_PADDING
  const uint64_t scratch = pairs * padded * 144 / 128;                     // block_q8_1_mmq; J_max(ne11 = 1) = 0
  const uint64_t end = 2 * r128(4 * pairs) + r128(4 * static_cast<uint64_t>(experts + 1)) + r128(scratch);
  const uint64_t scratch_end = end - r128(scratch) + scratch;
  return {scratch_end, (end + granularity - 1) / granularity * granularity};
}

uint64_t vmm_granularity() {
  CUdevice dev;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&dev, 0) != CUDA_SUCCESS) return 0;
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  size_t g = 0;
  if (cuMemGetAllocationGranularity(&g, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED) != CUDA_SUCCESS) return 0;
  return g;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s f1 N | f2 N | f3 plan | f3 N | f4 | f5 N\n", argv[0]);
    return 2;
  }
  const std::string c = argv[1];
  const int64_t n = argc > 2 && std::string(argv[2]) != "plan" ? std::atoll(argv[2]) : 0;
  setvbuf(stdout, nullptr, _IONBF, 0);
  if (c == "f1") {
    report("f1", n, run({8, 256, 256, 2, n, true, true}, distinct_ids, 64));
  } else if (c == "f2") {
    report("f2", n, run({16, 7168, 256, 8, n, false, true}, distinct_ids, 256));
  } else if (c == "f3" && argc > 2 && std::string(argv[2]) == "plan") {
    const uint64_t g = vmm_granularity();
    if (g == 0) {
      std::printf("PLAN none: no VMM granularity (the pool is not the VMM pool)\n");
      return 1;
    }
    int64_t hit = 0, control = 0;
    for (int64_t t = 1024; t <= 40000 && (!hit || !control); ++t) {
      const PoolEnd p = f3_pool(t, 256, 7168, 8, g);
      const uint64_t slack = p.mapped_end - p.scratch_end;
      if (!hit && slack <= 7 * 144) hit = t;
      if (hit && !control && t > hit && slack >= 4 * 128 * 144) control = t;
    }
    const PoolEnd a = f3_pool(hit, 256, 7168, 8, g), b = f3_pool(control, 256, 7168, 8, g);
    std::printf("PLAN granularity=%llu fault_tokens=%lld (scratch ends %llu bytes below the mapped end) "
                "control_tokens=%lld (%llu bytes below)\n",
                static_cast<unsigned long long>(g), static_cast<long long>(hit),
                static_cast<unsigned long long>(a.mapped_end - a.scratch_end), static_cast<long long>(control),
                static_cast<unsigned long long>(b.mapped_end - b.scratch_end));
  } else if (c == "f3") {
    report("f3", n, run({256, 256, 7168, 8, n, true, false}, f3_ids, 0));
  } else if (c == "f4") {
    report("f4", 64, run({16, 256, 256, 2, 64, true, true}, repeated_ids, 256));
  } else if (c == "f5") {
    report("f5", n, run({4096, 2048, 7168, 8, n, true, false}, distinct_ids, 0));
  } else {
    std::fprintf(stderr, "unknown case %s\n", c.c_str());
    return 2;
  }
  return 0;
}
