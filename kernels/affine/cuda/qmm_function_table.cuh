#pragma once
// Picks the qmm instantiation for runtime (bits, tile_m, tile_k, index width); included by one
// .cu file per activation type so the two halves compile in parallel.
#include <stdexcept>
#include <string>

#include "gridfuzz/device/function.hpp"
#include "qmm_kernel.cuh"

namespace gridfuzz::affine::detail {

template <class T, int BITS, int TM, int TK, class I>
const device::Function& qmm_instance(const char* type_name) {
  static const device::Function f = device::Function::from_symbol(
      reinterpret_cast<const void*>(&qmm_kernel<T, BITS, TM, TK, I>),
      std::string("qmm_sm80<") + type_name + "," + std::to_string(BITS) + "bit," + std::to_string(TM) + "x128x" +
          std::to_string(TK) + (sizeof(typename I::type) == 8 ? ",int64>" : ",int32>"));
  return f;
}

template <class T, int BITS, int TM, class I>
const device::Function& qmm_by_tile_k(int tile_k, const char* type_name) {
  if (tile_k == 64) return qmm_instance<T, BITS, TM, 64, I>(type_name);
  if (tile_k == 128) return qmm_instance<T, BITS, TM, 128, I>(type_name);
  throw std::invalid_argument("qmm: no kernel for tile_k " + std::to_string(tile_k));
}

template <class T, int BITS, class I>
const device::Function& qmm_by_tile_m(int tile_m, int tile_k, const char* type_name) {
  if (tile_m == 16) return qmm_by_tile_k<T, BITS, 16, I>(tile_k, type_name);
  if (tile_m == 32) return qmm_by_tile_k<T, BITS, 32, I>(tile_k, type_name);
  if (tile_m == 64) return qmm_by_tile_k<T, BITS, 64, I>(tile_k, type_name);
  throw std::invalid_argument("qmm: no kernel for tile_m " + std::to_string(tile_m));
}

template <class T>
const device::Function& qmm_select(int bits, int tile_m, int tile_k, bool wide, const char* type_name) {
  if (bits == 4)
    return wide ? qmm_by_tile_m<T, 4, Int64Index>(tile_m, tile_k, type_name)
                : qmm_by_tile_m<T, 4, WrappingInt32Index>(tile_m, tile_k, type_name);
  if (bits == 8)
    return wide ? qmm_by_tile_m<T, 8, Int64Index>(tile_m, tile_k, type_name)
                : qmm_by_tile_m<T, 8, WrappingInt32Index>(tile_m, tile_k, type_name);
  throw std::invalid_argument("qmm: no kernel for " + std::to_string(bits) + "-bit weights");
}

}  // namespace gridfuzz::affine::detail
