// mlx.qmm: the dense LM head through MLX's QuantizedMatmul: out[T, V] = x[T, K] * dequant(w[V, K])^T.
// MLX's int M*N (quantized.cpp:104, qmm_utils.h:12, qmv.cu:421) makes tokens*vocab >= 2^31 fail.
#include "gridfuzz/mlx/register.hpp"
#include "mlx_matmul_kernel.hpp"

namespace gridfuzz::mlx {

std::shared_ptr<const Kernel> make_dense_qmm_kernel() {
  return std::make_shared<MlxMatmulKernel>(
      affine::MatmulCall::dense, "mlx.qmm",
      "MLX 846d176 quantized matmul, dense (LM head): MLX's qmv / qmm_sm80 kernels with MLX's own host "
      "geometry (upstream: int M*N batch count) vs the same kernels over row chunks (chunked)");
}

}  // namespace gridfuzz::mlx
