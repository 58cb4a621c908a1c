// qmm_small instantiations (4-bit weights; f16/bf16 activations; 8, 16, 32 or 64 tokens per call;
// 2 or 4 K parts; int32/int64 index math).
#include <stdexcept>
#include <string>

#include "gridfuzz/affine/qmm_small_plan.hpp"
#include "kernel_functions.hpp"
#include "qmm_small_kernel.cuh"

namespace gridfuzz::affine {

// The plan declares the kernel's geometry and shared memory from these.
static_assert(kQmmSmallThreads == 32 * kQmmSmallWarpsDevice && kQmmSmallStages == kQmmSmallStagesDevice);
static_assert(kQmmSmallWeightStageBytes == kQmmSmallWBytes && kQmmSmallGroupStageBytes == kQmmSmallGroupBytes);
static_assert(kQmmSmallPartK == qmm_small_chunk<2> / 2 && qmm_small_rows<2> == 64 && qmm_small_rows<4> == 32);
static_assert(qmm_small_stage_bytes<2, 4> == 26624 && qmm_small_stage_bytes<8, 2> == 43008);
static_assert(kQmmSmallMaxTokens == 64);

namespace {

template <class T, int NT, int PARTS, class I>
const device::Function& qmm_small_instance(const char* type_name) {
  static const device::Function f = device::Function::from_symbol(
      reinterpret_cast<const void*>(&qmm_small_kernel<T, NT, PARTS, I>),
      std::string("qmm_small<") + type_name + ",4bit,tokens" + std::to_string(NT * 8) + ",parts" +
          std::to_string(PARTS) + (sizeof(typename I::type) == 8 ? ",int64>" : ",int32>"));
  return f;
}

template <class T, int PARTS, class I>
const device::Function& qmm_small_by_tiles(int token_tiles, const char* type_name) {
  switch (token_tiles) {
    case 1: return qmm_small_instance<T, 1, PARTS, I>(type_name);
    case 2: return qmm_small_instance<T, 2, PARTS, I>(type_name);
    case 4: return qmm_small_instance<T, 4, PARTS, I>(type_name);
    case 8: return qmm_small_instance<T, 8, PARTS, I>(type_name);
    default: throw std::invalid_argument("qmm_small: no kernel for " + std::to_string(token_tiles) + " token tiles");
  }
}

template <class T, class I>
const device::Function& qmm_small_by_parts(int token_tiles, int k_parts, const char* type_name) {
  if (k_parts == 2) return qmm_small_by_tiles<T, 2, I>(token_tiles, type_name);
  if (k_parts == 4) return qmm_small_by_tiles<T, 4, I>(token_tiles, type_name);
  throw std::invalid_argument("qmm_small: no kernel for " + std::to_string(k_parts) + " K parts");
}

template <class T>
const device::Function& qmm_small_select(int token_tiles, int k_parts, bool wide, const char* type_name) {
  return wide ? qmm_small_by_parts<T, Int64Index>(token_tiles, k_parts, type_name)
              : qmm_small_by_parts<T, WrappingInt32Index>(token_tiles, k_parts, type_name);
}

}  // namespace

const device::Function& qmm_small_function(Dtype dtype, int token_tiles, int k_parts, bool wide_index) {
  if (dtype == Dtype::float16) return qmm_small_select<__half>(token_tiles, k_parts, wide_index, "f16");
  if (dtype == Dtype::bfloat16) return qmm_small_select<__nv_bfloat16>(token_tiles, k_parts, wide_index, "bf16");
  throw std::invalid_argument("qmm_small: activations must be f16 or bf16");
}

}  // namespace gridfuzz::affine
