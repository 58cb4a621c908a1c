// Instantiations of the by_expert moe_vec kernels (docs/KERNELS.md, "Ours: by_expert"): the GEMV
// for every weight type, output dtype and index width, and its pre-pass.
// Before any include of block_dot.cuh: block_dot's dp4a as a plain (non-volatile) asm in this
// translation unit only, so that the GEMV's repeated operand loads merge (block_dot.cuh, dp4a_op).
#define GRIDFUZZ_GGUF_DP4A_MOVABLE 1
#include "gemv_by_expert.cuh"
#include "gemv_functions.hpp"
#include "quant_dispatch.hpp"

namespace gridfuzz::gguf {

const void* gemv_by_expert_symbol(QuantType t, OutDtype d, GemvIndexWidth width) {
  return dispatch_weight_type(t, [d, width]<QuantType T>() -> const void* {
    const auto of_out = [width]<class Out>() -> const void* {
      if (width == GemvIndexWidth::bits32)
        return reinterpret_cast<const void*>(&device_code::gemv_by_expert<T, Out, std::uint32_t>);
      return reinterpret_cast<const void*>(&device_code::gemv_by_expert<T, Out, std::uint64_t>);
    };
    if (d == OutDtype::f32) return of_out.template operator()<float>();
    return of_out.template operator()<__nv_bfloat16>();
  });
}

const void* expert_group_symbol(ExpertGroupStep step, GemvIndexWidth width) {
  switch (step) {
    case ExpertGroupStep::count: return reinterpret_cast<const void*>(&device_code::moe_expert_count);
    case ExpertGroupStep::scan: return reinterpret_cast<const void*>(&device_code::moe_expert_scan);
    case ExpertGroupStep::scatter:
      if (width == GemvIndexWidth::bits32) return reinterpret_cast<const void*>(&device_code::moe_expert_scatter<std::uint32_t>);
      return reinterpret_cast<const void*>(&device_code::moe_expert_scatter<std::uint64_t>);
    case ExpertGroupStep::one_block:
      if (width == GemvIndexWidth::bits32) return reinterpret_cast<const void*>(&device_code::moe_expert_group<std::uint32_t>);
      return reinterpret_cast<const void*>(&device_code::moe_expert_group<std::uint64_t>);
  }
  return nullptr;
}

}  // namespace gridfuzz::gguf
