#pragma once
// The host symbol of one gemv_tiled instantiation, chosen at run time: one place for the
// (type, dtype, index width) -> template-argument mapping that gemv_pairs_x.cu and gemv_rows_x.cu
// each instantiate for their layout (two translation units so the instantiations compile in
// parallel).
#include <cstdint>

#include "gemv_functions.hpp"
#include "gemv_kernel.cuh"
#include "quant_dispatch.hpp"

namespace gridfuzz::gguf {

template <bool PairsOnX>
const void* gemv_tiled_symbol(QuantType t, OutDtype d, GemvIndexWidth width) {
  return dispatch_weight_type(t, [d, width]<QuantType T>() -> const void* {
    const auto of_out = [width]<class Out>() -> const void* {
      if (width == GemvIndexWidth::bits32)
        return reinterpret_cast<const void*>(&device_code::gemv_tiled<T, Out, PairsOnX, std::uint32_t>);
      return reinterpret_cast<const void*>(&device_code::gemv_tiled<T, Out, PairsOnX, std::uint64_t>);
    };
    if (d == OutDtype::f32) return of_out.template operator()<float>();
    return of_out.template operator()<__nv_bfloat16>();
  });
}

}  // namespace gridfuzz::gguf
