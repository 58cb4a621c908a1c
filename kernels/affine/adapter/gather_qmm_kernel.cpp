// affine.gather_qmm: the MoE expert matmul in mlx-lm's sorted form
// (docs/KERNELS.md, "mlx-lm gather_qmm"): one slice per (token, expert) pair with M = 1,
// l = tokens*top_k slices on grid.z, lhs index = pair / top_k, rhs index = the pair's expert.
// Upstream puts l on grid.z, so tokens*top_k > 65535 is refused.
#include "affine_matmul_kernel.hpp"
#include "gridfuzz/affine/register.hpp"

namespace gridfuzz::affine {

std::shared_ptr<const Kernel> make_gather_qmm_kernel() {
  return std::make_shared<AffineMatmulKernel>(
      MatmulCall::gather, "affine.gather_qmm",
      "MLX affine quantized gather matmul (MoE, sorted form): legacy l = tokens*top_k on grid.z vs fixed batch "
      "chunks of max_grid_z");
}

}  // namespace gridfuzz::affine
