// The two mlx.* kernels: MLX's QuantizedMatmul and GatherQMM calls, each through MLX's own host code
// (MlxMatmulKernel), with the affine family's axes, shapes and references.
#include "gridfuzz/mlx/register.hpp"
#include "mlx_matmul_kernel.hpp"

namespace gridfuzz::mlx {

// mlx.qmm: the dense LM head through MLX's QuantizedMatmul: out[T, V] = x[T, K] * dequant(w[V, K])^T.
// MLX's int M*N (quantized.cpp:104, qmm_utils.h:12, qmv.cu:421) makes tokens*vocab >= 2^31 fail.
std::shared_ptr<const Kernel> make_dense_qmm_kernel() {
  return std::make_shared<MlxMatmulKernel>(
      affine::MatmulCall::dense, "mlx.qmm",
      "MLX 846d176 quantized matmul, dense (LM head): MLX's kernels with MLX's own host geometry (upstream: int M*N "
      "batch count) vs the same kernels over row chunks (chunked). MLX's dispatch on sm_90 (quantized.cpp:106-136): "
      "qmv below 8 rows (built), qmm_sm80 (built: f16/bf16 x 4/8 bits at group 64, bf16 4-bit at groups 32/128), "
      "qmm_sm90 where K <= group_size (not built: refused), qmm_naive where N % 128 != 0 (host geometry built, kernels "
      "not built: refused; the vocab axis keeps N a multiple of 128)");
}

// mlx.gather_qmm: the MoE expert matmul through MLX's GatherQMM in mlx-lm's sorted form: one
// slice per (token, expert) pair with M = 1, B = tokens*top_k slices, lhs = pair / top_k, rhs =
// the pair's expert. MLX puts B on grid.z (qmm_sm80.cu:77-80, qmv.cu:320-321), so
// tokens*top_k > 65535 is refused.
std::shared_ptr<const Kernel> make_gather_qmm_kernel() {
  return std::make_shared<MlxMatmulKernel>(
      affine::MatmulCall::gather, "mlx.gather_qmm",
      "MLX 846d176 quantized gather matmul (MoE, sorted form): MLX's kernels with MLX's own host geometry (upstream: "
      "B = tokens*top_k on grid.z) vs the same kernels over batch chunks (chunked). MLX's dispatch (quantized.cpp:"
      "241-262, no sm90): gather_qmv below 8 pairs (built), qmm_sm80 (built, as mlx.qmm), qmm_naive where N % 128 != 0 "
      "(host geometry built, kernels not built: refused; the rows axis keeps N a multiple of 128)");
}

void register_kernels(Registry& registry) {
  registry.add(make_dense_qmm_kernel());
  registry.add(make_gather_qmm_kernel());
}

}  // namespace gridfuzz::mlx
