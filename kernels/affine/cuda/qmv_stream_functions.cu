// qmv_stream instantiations (4-bit weights; f16/bf16 activations; int32/int64 index math).
#include <stdexcept>
#include <string>

#include "gridfuzz/affine/qmv_stream_plan.hpp"
#include "kernel_functions.hpp"
#include "qmv_stream_kernel.cuh"

namespace gridfuzz::affine {

// The plan declares the kernel's geometry and shared memory from these.
static_assert(kQmvStreamTileSmemBytes == kQmvStreamTileBytes && kQmvStreamTileElements == kQmvStreamTile);
static_assert(kQmvColsPerBlock == kQmvStreamWarps);
static_assert(kQmvStreamRingSmemBytes == std::uint64_t{kQmvStreamWarps} * kQmvStreamStages * kQmvStreamStageBytes);
static_assert(kQmvStreamStageBytes == 32 * 4 * 16);

namespace {

template <class T, class I>
const device::Function& qmv_stream_instance(const char* type_name) {
  static const device::Function f = device::Function::from_symbol(
      reinterpret_cast<const void*>(&qmv_stream_kernel<T, I>),
      std::string("qmv_stream<") + type_name + ",4bit" + (sizeof(typename I::type) == 8 ? ",int64>" : ",int32>"));
  return f;
}

template <class T>
const device::Function& qmv_stream_select(bool wide, const char* type_name) {
  return wide ? qmv_stream_instance<T, Int64Index>(type_name) : qmv_stream_instance<T, WrappingInt32Index>(type_name);
}

}  // namespace

const device::Function& qmv_stream_function(Dtype dtype, bool wide_index) {
  if (dtype == Dtype::float16) return qmv_stream_select<__half>(wide_index, "f16");
  if (dtype == Dtype::bfloat16) return qmv_stream_select<__nv_bfloat16>(wide_index, "bf16");
  throw std::invalid_argument("qmv_stream: activations must be f16 or bf16");
}

}  // namespace gridfuzz::affine
