// Definitions of the functions the MLX stand-in headers (kernels/mlx/shim) declare: the few MLX
// library functions its quantized CUDA host code calls, with MLX's spelling of each value.
#include "mlx/backend/cuda/utils.h"
#include "mlx/dtype.h"
#include "mlx/primitives.h"

namespace mlx::core {

const char* dtype_to_string(Dtype d) {
  switch (d.val) {
    case Dtype::Val::bool_: return "bool";
    case Dtype::Val::uint8: return "uint8";
    case Dtype::Val::uint16: return "uint16";
    case Dtype::Val::uint32: return "uint32";
    case Dtype::Val::uint64: return "uint64";
    case Dtype::Val::int8: return "int8";
    case Dtype::Val::int16: return "int16";
    case Dtype::Val::int32: return "int32";
    case Dtype::Val::int64: return "int64";
    case Dtype::Val::float16: return "float16";
    case Dtype::Val::float32: return "float32";
    case Dtype::Val::float64: return "float64";
    case Dtype::Val::bfloat16: return "bfloat16";
    case Dtype::Val::complex64: return "complex64";
  }
  return "unknown";
}

const char* dtype_to_cuda_type(const Dtype& d) {
  if (d == float16) return "__half";
  if (d == bfloat16) return "__nv_bfloat16";
  if (d == float32) return "float";
  return dtype_to_string(d);
}

std::string quantization_mode_to_string(QuantizationMode mode) {
  switch (mode) {
    case QuantizationMode::Affine: return "affine";
    case QuantizationMode::Mxfp4: return "mxfp4";
    case QuantizationMode::Mxfp8: return "mxfp8";
    case QuantizationMode::Nvfp4: return "nvfp4";
  }
  return "unknown";
}

}  // namespace mlx::core
