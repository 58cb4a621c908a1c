// mmq.cu's type switch (ggml_cuda_mul_mat_q_switch_type, mmq.cu:8-106) names mul_mat_q_case<T>
// of every type llama.cpp supports; upstream compiles one template-instances/mmq-instance-<t>.cu
// per type. gridfuzz compiles only the instances of the types it covers (CMakeLists.txt,
// GRIDFUZZ_LLAMACPP_MMQ_TYPES), to keep the build short; the other entries are these, written by
// gridfuzz: they abort naming the type, as upstream's switch does for a type it lacks
// (GGML_ABORT). gridfuzz never asks for them (the kernels' quant axis lists the covered types).
//
// The template is declared here as mmq.cuh declares it (mmq.cuh:1568); this file does not include
// mmq.cuh, so that its explicit instantiation declarations do not meet these specializations.
#include <cuda_runtime.h>

#include "common.cuh"

struct mmq_args;

// llama.cpp before its activation-precision parameter (e.g. ggml-org/ggml d99724f, 2026-08-21)
// declares mul_mat_q_case<type> alone; CMakeLists.txt reads mmq.cuh and sets
// GRIDFUZZ_LLAMACPP_MMQ_PREC where the template also takes the precision (the pinned sdist).
#if GRIDFUZZ_LLAMACPP_MMQ_PREC
template <ggml_type type, ggml_prec prec_src1 = GGML_PREC_Q8>
void mul_mat_q_case(ggml_backend_cuda_context& ctx, const mmq_args& args, cudaStream_t stream);
#define GRIDFUZZ_MMQ_CASE(type, prec) mul_mat_q_case<type, prec>
#else
template <ggml_type type>
void mul_mat_q_case(ggml_backend_cuda_context& ctx, const mmq_args& args, cudaStream_t stream);
#define GRIDFUZZ_MMQ_CASE(type, prec) mul_mat_q_case<type>
#endif

#define GRIDFUZZ_MMQ_NOT_BUILT(type, prec)                                                              \
  template <>                                                                                           \
  void GRIDFUZZ_MMQ_CASE(type, prec)(ggml_backend_cuda_context&, const mmq_args&, cudaStream_t) {       \
    GGML_ABORT("gridfuzz: the mmq instance of %s is not built (kernels/llamacpp/CMakeLists.txt)", #type); \
  }

GRIDFUZZ_MMQ_NOT_BUILT(GGML_TYPE_Q1_0, GGML_PREC_Q8)
GRIDFUZZ_MMQ_NOT_BUILT(GGML_TYPE_Q2_0, GGML_PREC_Q8)
GRIDFUZZ_MMQ_NOT_BUILT(GGML_TYPE_Q4_1, GGML_PREC_Q8)
GRIDFUZZ_MMQ_NOT_BUILT(GGML_TYPE_Q5_0, GGML_PREC_Q8)
GRIDFUZZ_MMQ_NOT_BUILT(GGML_TYPE_Q5_1, GGML_PREC_Q8)
GRIDFUZZ_MMQ_NOT_BUILT(GGML_TYPE_Q2_K, GGML_PREC_Q8)
GRIDFUZZ_MMQ_NOT_BUILT(GGML_TYPE_Q3_K, GGML_PREC_Q8)
GRIDFUZZ_MMQ_NOT_BUILT(GGML_TYPE_Q5_K, GGML_PREC_Q8)
GRIDFUZZ_MMQ_NOT_BUILT(GGML_TYPE_IQ1_S, GGML_PREC_Q8)
GRIDFUZZ_MMQ_NOT_BUILT(GGML_TYPE_IQ2_XXS, GGML_PREC_Q8)
GRIDFUZZ_MMQ_NOT_BUILT(GGML_TYPE_IQ2_XS, GGML_PREC_Q8)
GRIDFUZZ_MMQ_NOT_BUILT(GGML_TYPE_IQ2_S, GGML_PREC_Q8)
GRIDFUZZ_MMQ_NOT_BUILT(GGML_TYPE_IQ3_XXS, GGML_PREC_Q8)
GRIDFUZZ_MMQ_NOT_BUILT(GGML_TYPE_IQ3_S, GGML_PREC_Q8)
GRIDFUZZ_MMQ_NOT_BUILT(GGML_TYPE_IQ4_NL, GGML_PREC_Q8)
GRIDFUZZ_MMQ_NOT_BUILT(GGML_TYPE_MXFP4, GGML_PREC_Q8)
#if GRIDFUZZ_LLAMACPP_MMQ_PREC
GRIDFUZZ_MMQ_NOT_BUILT(GGML_TYPE_MXFP4, GGML_PREC_Q4)
#endif
GRIDFUZZ_MMQ_NOT_BUILT(GGML_TYPE_NVFP4, GGML_PREC_Q8)
#if GRIDFUZZ_LLAMACPP_MMQ_PREC
GRIDFUZZ_MMQ_NOT_BUILT(GGML_TYPE_NVFP4, GGML_PREC_Q4)
#endif
