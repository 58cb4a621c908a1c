// mlx.gather_qmm: the MoE expert matmul through MLX's GatherQMM in mlx-lm's sorted form: one
// slice per (token, expert) pair with M = 1, B = tokens*top_k slices, lhs = pair / top_k, rhs =
// the pair's expert. MLX puts B on grid.z (qmm_sm80.cu:77-80, qmv.cu:320-321), so
// tokens*top_k > 65535 is refused.
#include "gridfuzz/mlx/register.hpp"
#include "mlx_matmul_kernel.hpp"

namespace gridfuzz::mlx {

std::shared_ptr<const Kernel> make_gather_qmm_kernel() {
  return std::make_shared<MlxMatmulKernel>(
      affine::MatmulCall::gather, "mlx.gather_qmm",
      "MLX 846d176 quantized gather matmul (MoE, sorted form): MLX's gather_qmv / qmm_sm80 kernels with MLX's "
      "own host geometry (upstream: B = tokens*top_k on grid.z) vs the same kernels over batch chunks (chunked)");
}

}  // namespace gridfuzz::mlx
