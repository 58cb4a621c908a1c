// vLLM's GGUF kernels, unmodified: gguf_kernel.cu of vllm-gguf-plugin 0.0.5 (which includes
// moe_vec.cuh, mmvq.cuh, moe.cuh, mmq.cuh, vecdotq.cuh, dequantize.cuh, ggml-common.h) compiled
// in this translation unit against the torch stand-ins of kernels/vllm/shim, so that its static
// __global__ templates can be named here. Citations are "file:line" in that package's
// vllm_gguf_plugin/csrc/gguf/ (docs/upstream/vllm-gguf.md).
#include "gguf/gguf_kernel.cu"

#include <stdexcept>

#include "gridfuzz/gguf/formats.hpp"
#include "upstream_kernels.hpp"

namespace gridfuzz::vllm {
namespace {

template <typename scalar_t>
const void* moe_vec_instance(gguf::QuantType t) {
  using gguf::QuantType;
  // Each line: the template arguments of the launch in moe_vec_<type>_q8_1_cuda (moe_vec.cuh).
  switch (t) {
    case QuantType::q4_0:  // moe_vec.cuh:65
      return reinterpret_cast<const void*>(
          moe_vec_q<scalar_t, QK4_0, QI4_0, block_q4_0, VDR_Q4_0_Q8_1_MMVQ, vec_dot_q4_0_q8_1>);
    case QuantType::q4_1:  // moe_vec.cuh:80
      return reinterpret_cast<const void*>(
          moe_vec_q<scalar_t, QK4_0, QI4_1, block_q4_1, VDR_Q4_1_Q8_1_MMVQ, vec_dot_q4_1_q8_1>);
    case QuantType::q5_0:  // moe_vec.cuh:95
      return reinterpret_cast<const void*>(
          moe_vec_q<scalar_t, QK5_0, QI5_0, block_q5_0, VDR_Q5_0_Q8_1_MMVQ, vec_dot_q5_0_q8_1>);
    case QuantType::q5_1:  // moe_vec.cuh:110
      return reinterpret_cast<const void*>(
          moe_vec_q<scalar_t, QK5_1, QI5_1, block_q5_1, VDR_Q5_1_Q8_1_MMVQ, vec_dot_q5_1_q8_1>);
    case QuantType::q8_0:  // moe_vec.cuh:125
      return reinterpret_cast<const void*>(
          moe_vec_q<scalar_t, QK8_0, QI8_0, block_q8_0, VDR_Q8_0_Q8_1_MMVQ, vec_dot_q8_0_q8_1>);
    case QuantType::q2_K:  // moe_vec.cuh:140
      return reinterpret_cast<const void*>(
          moe_vec_q<scalar_t, QK_K, QI2_K, block_q2_K, VDR_Q2_K_Q8_1_MMVQ, vec_dot_q2_K_q8_1>);
    case QuantType::q3_K:  // moe_vec.cuh:155
      return reinterpret_cast<const void*>(
          moe_vec_q<scalar_t, QK_K, QI3_K, block_q3_K, VDR_Q3_K_Q8_1_MMVQ, vec_dot_q3_K_q8_1>);
    case QuantType::q4_K:  // moe_vec.cuh:170
      return reinterpret_cast<const void*>(
          moe_vec_q<scalar_t, QK_K, QI4_K, block_q4_K, VDR_Q4_K_Q8_1_MMVQ, vec_dot_q4_K_q8_1>);
    case QuantType::q5_K:  // moe_vec.cuh:185
      return reinterpret_cast<const void*>(
          moe_vec_q<scalar_t, QK_K, QI5_K, block_q5_K, VDR_Q5_K_Q8_1_MMVQ, vec_dot_q5_K_q8_1>);
    case QuantType::q6_K:  // moe_vec.cuh:200
      return reinterpret_cast<const void*>(
          moe_vec_q<scalar_t, QK_K, QI6_K, block_q6_K, VDR_Q6_K_Q8_1_MMVQ, vec_dot_q6_K_q8_1>);
    case QuantType::iq4_nl:  // moe_vec.cuh:305
      return reinterpret_cast<const void*>(
          moe_vec_q<scalar_t, QK4_NL, QI4_NL, block_iq4_nl, VDR_Q4_0_Q8_1_MMVQ, vec_dot_iq4_nl_q8_1>);
    case QuantType::iq4_xs:  // moe_vec.cuh:320
      return reinterpret_cast<const void*>(moe_vec_q<scalar_t, QK_K, QI4_XS, block_iq4_xs, 1, vec_dot_iq4_xs_q8_1>);
#if GRIDFUZZ_GGUF_IQ
    case QuantType::iq2_xxs:  // moe_vec.cuh:215
      return reinterpret_cast<const void*>(moe_vec_q<scalar_t, QK_K, QI2_XXS, block_iq2_xxs, 1, vec_dot_iq2_xxs_q8_1>);
    case QuantType::iq2_xs:  // moe_vec.cuh:230
      return reinterpret_cast<const void*>(moe_vec_q<scalar_t, QK_K, QI2_XS, block_iq2_xs, 1, vec_dot_iq2_xs_q8_1>);
    case QuantType::iq2_s:  // moe_vec.cuh:245
      return reinterpret_cast<const void*>(moe_vec_q<scalar_t, QK_K, QI2_S, block_iq2_s, 1, vec_dot_iq2_s_q8_1>);
    case QuantType::iq3_xxs:  // moe_vec.cuh:260
      return reinterpret_cast<const void*>(moe_vec_q<scalar_t, QK_K, QI3_XXS, block_iq3_xxs, 1, vec_dot_iq3_xxs_q8_1>);
    case QuantType::iq1_s:  // moe_vec.cuh:275
      return reinterpret_cast<const void*>(moe_vec_q<scalar_t, QK_K, QI1_S, block_iq1_s, 1, vec_dot_iq1_s_q8_1>);
    case QuantType::iq1_m:  // moe_vec.cuh:290
      return reinterpret_cast<const void*>(moe_vec_q<scalar_t, QK_K, QI1_M, block_iq1_m, 1, vec_dot_iq1_m_q8_1>);
    case QuantType::iq3_s:  // moe_vec.cuh:335
      return reinterpret_cast<const void*>(moe_vec_q<scalar_t, QK_K, QI3_XS, block_iq3_s, 1, vec_dot_iq3_s_q8_1>);
#endif
    default:
      throw std::invalid_argument("vllm moe_vec: weight type " + std::string(gguf::to_string(t)) +
                                  " is not one gridfuzz drives (its formats cannot fill or check it)");
  }
}

template <typename scalar_t>
const void* mmvq_instance(gguf::QuantType t) {
  using gguf::QuantType;
  // Each line: the template arguments of the launch in mul_mat_vec_<type>_q8_1_cuda (mmvq.cuh).
  switch (t) {
    case QuantType::q4_0:  // mmvq.cuh:48
      return reinterpret_cast<const void*>(
          mul_mat_vec_q<scalar_t, QK4_0, QI4_0, block_q4_0, VDR_Q4_0_Q8_1_MMVQ, vec_dot_q4_0_q8_1>);
    case QuantType::q4_1:  // mmvq.cuh:57
      return reinterpret_cast<const void*>(
          mul_mat_vec_q<scalar_t, QK4_0, QI4_1, block_q4_1, VDR_Q4_1_Q8_1_MMVQ, vec_dot_q4_1_q8_1>);
    case QuantType::q5_0:  // mmvq.cuh:66
      return reinterpret_cast<const void*>(
          mul_mat_vec_q<scalar_t, QK5_0, QI5_0, block_q5_0, VDR_Q5_0_Q8_1_MMVQ, vec_dot_q5_0_q8_1>);
    case QuantType::q5_1:  // mmvq.cuh:75
      return reinterpret_cast<const void*>(
          mul_mat_vec_q<scalar_t, QK5_1, QI5_1, block_q5_1, VDR_Q5_1_Q8_1_MMVQ, vec_dot_q5_1_q8_1>);
    case QuantType::q8_0:  // mmvq.cuh:84
      return reinterpret_cast<const void*>(
          mul_mat_vec_q<scalar_t, QK8_0, QI8_0, block_q8_0, VDR_Q8_0_Q8_1_MMVQ, vec_dot_q8_0_q8_1>);
    case QuantType::q2_K:  // mmvq.cuh:93
      return reinterpret_cast<const void*>(
          mul_mat_vec_q<scalar_t, QK_K, QI2_K, block_q2_K, VDR_Q2_K_Q8_1_MMVQ, vec_dot_q2_K_q8_1>);
    case QuantType::q3_K:  // mmvq.cuh:102
      return reinterpret_cast<const void*>(
          mul_mat_vec_q<scalar_t, QK_K, QI3_K, block_q3_K, VDR_Q3_K_Q8_1_MMVQ, vec_dot_q3_K_q8_1>);
    case QuantType::q4_K:  // mmvq.cuh:111
      return reinterpret_cast<const void*>(
          mul_mat_vec_q<scalar_t, QK_K, QI4_K, block_q4_K, VDR_Q4_K_Q8_1_MMVQ, vec_dot_q4_K_q8_1>);
    case QuantType::q5_K:  // mmvq.cuh:120
      return reinterpret_cast<const void*>(
          mul_mat_vec_q<scalar_t, QK_K, QI5_K, block_q5_K, VDR_Q5_K_Q8_1_MMVQ, vec_dot_q5_K_q8_1>);
    case QuantType::q6_K:  // mmvq.cuh:129
      return reinterpret_cast<const void*>(
          mul_mat_vec_q<scalar_t, QK_K, QI6_K, block_q6_K, VDR_Q6_K_Q8_1_MMVQ, vec_dot_q6_K_q8_1>);
    case QuantType::iq4_nl:  // mmvq.cuh:192
      return reinterpret_cast<const void*>(
          mul_mat_vec_q<scalar_t, QK4_NL, QI4_NL, block_iq4_nl, VDR_Q4_0_Q8_1_MMVQ, vec_dot_iq4_nl_q8_1>);
    case QuantType::iq4_xs:  // mmvq.cuh:201
      return reinterpret_cast<const void*>(mul_mat_vec_q<scalar_t, QK_K, QI4_XS, block_iq4_xs, 1, vec_dot_iq4_xs_q8_1>);
#if GRIDFUZZ_GGUF_IQ
    case QuantType::iq2_xxs:  // mmvq.cuh:138
      return reinterpret_cast<const void*>(mul_mat_vec_q<scalar_t, QK_K, QI2_XXS, block_iq2_xxs, 1, vec_dot_iq2_xxs_q8_1>);
    case QuantType::iq2_xs:  // mmvq.cuh:147
      return reinterpret_cast<const void*>(mul_mat_vec_q<scalar_t, QK_K, QI2_XS, block_iq2_xs, 1, vec_dot_iq2_xs_q8_1>);
    case QuantType::iq2_s:  // mmvq.cuh:156
      return reinterpret_cast<const void*>(mul_mat_vec_q<scalar_t, QK_K, QI2_S, block_iq2_s, 1, vec_dot_iq2_s_q8_1>);
    case QuantType::iq3_xxs:  // mmvq.cuh:165
      return reinterpret_cast<const void*>(mul_mat_vec_q<scalar_t, QK_K, QI3_XXS, block_iq3_xxs, 1, vec_dot_iq3_xxs_q8_1>);
    case QuantType::iq1_s:  // mmvq.cuh:174
      return reinterpret_cast<const void*>(mul_mat_vec_q<scalar_t, QK_K, QI1_S, block_iq1_s, 1, vec_dot_iq1_s_q8_1>);
    case QuantType::iq1_m:  // mmvq.cuh:183
      return reinterpret_cast<const void*>(mul_mat_vec_q<scalar_t, QK_K, QI1_M, block_iq1_m, 1, vec_dot_iq1_m_q8_1>);
    case QuantType::iq3_s:  // mmvq.cuh:210
      return reinterpret_cast<const void*>(mul_mat_vec_q<scalar_t, QK_K, QI3_XS, block_iq3_s, 1, vec_dot_iq3_s_q8_1>);
#endif
    default:
      throw std::invalid_argument("vllm mmvq: weight type " + std::string(gguf::to_string(t)) +
                                  " is not one gridfuzz drives (its formats cannot fill or check it)");
  }
}

template <typename scalar_t>
const void* moe_mmq_instance(gguf::QuantType t, bool need_check) {
  using gguf::QuantType;
  // The kernel ggml_moe_<type>_q8_1_cuda launches (moe.cuh), with need_check = nrows % mmq_y != 0.
  switch (t) {
    case QuantType::q4_0:  // moe.cuh:146
      return need_check ? reinterpret_cast<const void*>(moe_q4_0<scalar_t, true>)
                        : reinterpret_cast<const void*>(moe_q4_0<scalar_t, false>);
    case QuantType::q4_1:  // moe.cuh:207
      return need_check ? reinterpret_cast<const void*>(moe_q4_1<scalar_t, true>)
                        : reinterpret_cast<const void*>(moe_q4_1<scalar_t, false>);
    case QuantType::q5_0:  // moe.cuh:268
      return need_check ? reinterpret_cast<const void*>(moe_q5_0<scalar_t, true>)
                        : reinterpret_cast<const void*>(moe_q5_0<scalar_t, false>);
    case QuantType::q5_1:  // moe.cuh:329
      return need_check ? reinterpret_cast<const void*>(moe_q5_1<scalar_t, true>)
                        : reinterpret_cast<const void*>(moe_q5_1<scalar_t, false>);
    case QuantType::q8_0:  // moe.cuh:390
      return need_check ? reinterpret_cast<const void*>(moe_q8_0<scalar_t, true>)
                        : reinterpret_cast<const void*>(moe_q8_0<scalar_t, false>);
    case QuantType::q2_K:  // moe.cuh:451
      return need_check ? reinterpret_cast<const void*>(moe_q2_K<scalar_t, true>)
                        : reinterpret_cast<const void*>(moe_q2_K<scalar_t, false>);
    case QuantType::q3_K:  // moe.cuh:512
      return need_check ? reinterpret_cast<const void*>(moe_q3_K<scalar_t, true>)
                        : reinterpret_cast<const void*>(moe_q3_K<scalar_t, false>);
    case QuantType::q4_K:  // moe.cuh:573
      return need_check ? reinterpret_cast<const void*>(moe_q4_K<scalar_t, true>)
                        : reinterpret_cast<const void*>(moe_q4_K<scalar_t, false>);
    case QuantType::q5_K:  // moe.cuh:634
      return need_check ? reinterpret_cast<const void*>(moe_q5_K<scalar_t, true>)
                        : reinterpret_cast<const void*>(moe_q5_K<scalar_t, false>);
    case QuantType::q6_K:  // moe.cuh:695
      return need_check ? reinterpret_cast<const void*>(moe_q6_K<scalar_t, true>)
                        : reinterpret_cast<const void*>(moe_q6_K<scalar_t, false>);
    default:
      throw std::invalid_argument("vllm moe MMQ: weight type " + std::string(gguf::to_string(t)) +
                                  " has no moe kernel upstream");
  }
}

}  // namespace

std::string to_string(ScalarKind k) {
  switch (k) {
    case ScalarKind::f32: return "f32";
    case ScalarKind::f16: return "f16";
    case ScalarKind::bf16: return "bf16";
  }
  return "?";
}

std::size_t scalar_bytes(ScalarKind k) { return k == ScalarKind::f32 ? 4 : 2; }

std::vector<gguf::QuantType> moe_vec_quant_types() {
  const auto types = gguf::weight_quant_types();
  return {types.begin(), types.end()};
}

std::vector<std::string> block_layout_differences() {
  using gguf::QuantType;
  struct Upstream {
    QuantType type;
    std::size_t bytes;
    int qk, qi;
  };
  // sizeof and QK/QI of upstream's block structs (ggml-common.h) for every type gridfuzz drives.
  const Upstream upstream[] = {
      {QuantType::q4_0, sizeof(block_q4_0), QK4_0, QI4_0},     {QuantType::q4_1, sizeof(block_q4_1), QK4_1, QI4_1},
      {QuantType::q5_0, sizeof(block_q5_0), QK5_0, QI5_0},     {QuantType::q5_1, sizeof(block_q5_1), QK5_1, QI5_1},
      {QuantType::q8_0, sizeof(block_q8_0), QK8_0, QI8_0},     {QuantType::q8_1, sizeof(block_q8_1), QK8_1, QI8_1},
      {QuantType::q2_K, sizeof(block_q2_K), QK_K, QI2_K},      {QuantType::q3_K, sizeof(block_q3_K), QK_K, QI3_K},
      {QuantType::q4_K, sizeof(block_q4_K), QK_K, QI4_K},      {QuantType::q5_K, sizeof(block_q5_K), QK_K, QI5_K},
      {QuantType::q6_K, sizeof(block_q6_K), QK_K, QI6_K},      {QuantType::iq4_nl, sizeof(block_iq4_nl), QK4_NL, QI4_NL},
      {QuantType::iq4_xs, sizeof(block_iq4_xs), QK_K, QI4_XS},
#if GRIDFUZZ_GGUF_IQ
      {QuantType::iq2_xxs, sizeof(block_iq2_xxs), QK_K, QI2_XXS}, {QuantType::iq2_xs, sizeof(block_iq2_xs), QK_K, QI2_XS},
      {QuantType::iq2_s, sizeof(block_iq2_s), QK_K, QI2_S},       {QuantType::iq3_xxs, sizeof(block_iq3_xxs), QK_K, QI3_XXS},
      {QuantType::iq3_s, sizeof(block_iq3_s), QK_K, QI3_XS},      {QuantType::iq1_s, sizeof(block_iq1_s), QK_K, QI1_S},
      {QuantType::iq1_m, sizeof(block_iq1_m), QK_K, QI1_M},
#endif
  };
  std::vector<std::string> out;
  for (const Upstream& u : upstream) {
    const gguf::QuantTraits& ours = gguf::quant_traits(u.type);
    if (ours.block_bytes != u.bytes || static_cast<int>(ours.qk) != u.qk || static_cast<int>(ours.qi) != u.qi)
      out.push_back(std::string(gguf::to_string(u.type)) + ": upstream block " + std::to_string(u.bytes) + " bytes, qk " +
                    std::to_string(u.qk) + ", qi " + std::to_string(u.qi) + "; gridfuzz " +
                    std::to_string(ours.block_bytes) + " bytes, qk " + std::to_string(ours.qk) + ", qi " +
                    std::to_string(ours.qi));
  }
  return out;
}

const void* moe_vec_kernel(gguf::QuantType t, ScalarKind out) {
  switch (out) {
    case ScalarKind::f32: return moe_vec_instance<float>(t);
    case ScalarKind::f16: return moe_vec_instance<c10::Half>(t);
    case ScalarKind::bf16: return moe_vec_instance<c10::BFloat16>(t);
  }
  throw std::invalid_argument("vllm moe_vec: unknown output dtype");
}

const void* mmvq_kernel(gguf::QuantType t, ScalarKind out) {
  switch (out) {
    case ScalarKind::f32: return mmvq_instance<float>(t);
    case ScalarKind::f16: return mmvq_instance<c10::Half>(t);
    case ScalarKind::bf16: return mmvq_instance<c10::BFloat16>(t);
  }
  throw std::invalid_argument("vllm mmvq: unknown output dtype");
}

std::vector<gguf::QuantType> moe_mmq_quant_types() {
  using gguf::QuantType;
  return {QuantType::q4_0, QuantType::q4_1, QuantType::q5_0, QuantType::q5_1, QuantType::q8_0,
          QuantType::q2_K, QuantType::q3_K, QuantType::q4_K, QuantType::q5_K, QuantType::q6_K};
}

MmqTile moe_mmq_tile(gguf::QuantType t) {
  using gguf::QuantType;
  switch (t) {  // MOE_X_<T>, MOE_Y_<T>, NWARPS_<T> of moe.cuh (the CUDA, not the ROCm, values)
    case QuantType::q4_0: return {MOE_X_Q4_0, MOE_Y_Q4_0, NWARPS_Q4_0};
    case QuantType::q4_1: return {MOE_X_Q4_1, MOE_Y_Q4_1, NWARPS_Q4_1};
    case QuantType::q5_0: return {MOE_X_Q5_0, MOE_Y_Q5_0, NWARPS_Q5_0};
    case QuantType::q5_1: return {MOE_X_Q5_1, MOE_Y_Q5_1, NWARPS_Q5_1};
    case QuantType::q8_0: return {MOE_X_Q8_0, MOE_Y_Q8_0, NWARPS_Q8_0};
    case QuantType::q2_K: return {MOE_X_Q2_K, MOE_Y_Q2_K, NWARPS_Q2_K};
    case QuantType::q3_K: return {MOE_X_Q3_K, MOE_Y_Q3_K, NWARPS_Q3_K};
    case QuantType::q4_K: return {MOE_X_Q4_K, MOE_Y_Q4_K, NWARPS_Q4_K};
    case QuantType::q5_K: return {MOE_X_Q5_K, MOE_Y_Q5_K, NWARPS_Q5_K};
    case QuantType::q6_K: return {MOE_X_Q6_K, MOE_Y_Q6_K, NWARPS_Q6_K};
    default:
      throw std::invalid_argument("vllm moe MMQ: weight type " + std::string(gguf::to_string(t)) +
                                  " has no moe kernel upstream");
  }
}

const void* moe_mmq_kernel(gguf::QuantType t, ScalarKind out, bool need_check) {
  switch (out) {
    case ScalarKind::f32: return moe_mmq_instance<float>(t, need_check);
    case ScalarKind::f16: return moe_mmq_instance<c10::Half>(t, need_check);
    case ScalarKind::bf16: return moe_mmq_instance<c10::BFloat16>(t, need_check);
  }
  throw std::invalid_argument("vllm moe MMQ: unknown output dtype");
}

const void* quantize_q8_1_kernel(ScalarKind in) {
  switch (in) {  // gguf_kernel.cu:33, launched at gguf_kernel.cu:82
    case ScalarKind::f32: return reinterpret_cast<const void*>(quantize_q8_1<float>);
    case ScalarKind::f16: return reinterpret_cast<const void*>(quantize_q8_1<c10::Half>);
    case ScalarKind::bf16: return reinterpret_cast<const void*>(quantize_q8_1<c10::BFloat16>);
  }
  throw std::invalid_argument("vllm quantize_q8_1: unknown input dtype");
}

UpstreamConstants upstream_constants() {
  return {WARP_SIZE, GGML_CUDA_MMV_Y, CUDA_DEQUANTIZE_BLOCK_SIZE, CUDA_QUANTIZE_BLOCK_SIZE, QK8_1};
}

}  // namespace gridfuzz::vllm
