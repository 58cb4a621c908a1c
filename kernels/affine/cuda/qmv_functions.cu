// qmv instantiations, and the dtype dispatch of both kernel tables.
#include <stdexcept>
#include <string>

#include "kernel_functions.hpp"
#include "qmv_kernel.cuh"

namespace gridfuzz::affine {
namespace {

template <class T, int BITS, class I>
const device::Function& qmv_instance(const char* type_name) {
  static const device::Function f = device::Function::from_symbol(
      reinterpret_cast<const void*>(&qmv_kernel<T, BITS, I>),
      std::string("qmv<") + type_name + "," + std::to_string(BITS) + "bit" +
          (sizeof(typename I::type) == 8 ? ",int64>" : ",int32>"));
  return f;
}

template <class T>
const device::Function& qmv_select(int bits, bool wide, const char* type_name) {
  if (bits == 4) return wide ? qmv_instance<T, 4, Int64Index>(type_name) : qmv_instance<T, 4, WrappingInt32Index>(type_name);
  if (bits == 8) return wide ? qmv_instance<T, 8, Int64Index>(type_name) : qmv_instance<T, 8, WrappingInt32Index>(type_name);
  throw std::invalid_argument("qmv: no kernel for " + std::to_string(bits) + "-bit weights");
}

}  // namespace

const device::Function& qmv_function(Dtype dtype, int bits, bool wide_index) {
  if (dtype == Dtype::float16) return qmv_select<__half>(bits, wide_index, "f16");
  if (dtype == Dtype::bfloat16) return qmv_select<__nv_bfloat16>(bits, wide_index, "bf16");
  throw std::invalid_argument("qmv: activations must be f16 or bf16");
}

const device::Function& qmm_function(Dtype dtype, int bits, int tile_m, int tile_k, bool wide_index) {
  if (dtype == Dtype::float16) return detail::qmm_function_f16(bits, tile_m, tile_k, wide_index);
  if (dtype == Dtype::bfloat16) return detail::qmm_function_bf16(bits, tile_m, tile_k, wide_index);
  throw std::invalid_argument("qmm: activations must be f16 or bf16");
}

}  // namespace gridfuzz::affine
