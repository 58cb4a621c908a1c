// Instantiations of the rows_x moe_vec/mmvq kernels for every weight type and output dtype.
#include "gemv_functions.hpp"
#include "gemv_kernel.cuh"
#include "quant_dispatch.hpp"

namespace gridfuzz::gguf {

const void* gemv_rows_x_symbol(QuantType t, OutDtype d) {
  return dispatch_weight_type(t, [d]<QuantType T>() -> const void* {
    if (d == OutDtype::f32) {
      using Out = float;
      return reinterpret_cast<const void*>(&device_code::gemv_wide<T, Out, false>);
    }
    using Out = __nv_bfloat16;
    return reinterpret_cast<const void*>(&device_code::gemv_wide<T, Out, false>);
  });
}

}  // namespace gridfuzz::gguf
