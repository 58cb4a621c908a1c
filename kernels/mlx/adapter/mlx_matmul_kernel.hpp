#pragma once
// What mlx.qmm and mlx.gather_qmm share. MLX's affine layout is the one gridfuzz's affine family
// reproduces (uint32 words of LSB-first quants, a scale and a bias per group, activations and
// output in bf16/f16), so the buffers, the random inputs and the float64 CPU samples are the
// affine family's (AffineMatmulKernel): a disagreement between MLX's kernels and that reference
// on a legal shape is a finding about one of the two (affine::AffineMatmulCase). Planning, launching and the split reference
// are MLX's own host code (plan/mlx_call.hpp).
#include <string>
#include <vector>

#include "../plan/mlx_call.hpp"
#include "affine_matmul_kernel.hpp"

namespace gridfuzz::mlx {

class MlxMatmulKernel : public affine::AffineMatmulKernel {
 public:
  using AffineMatmulKernel::AffineMatmulKernel;
  std::vector<std::string> variants() const override { return {"upstream", "chunked"}; }
  // The affine family's constraints, and every kernel MLX's host code picks compiled in this build.
  std::optional<std::string> check(const Params& p) const override;
  // MLX's own host code plans and launches the case (mlx_matmul_kernel.cpp, MlxMatmulCase).
  std::unique_ptr<BoundCase> bind(const Params& p, const std::string& variant) const override;
};

Variant require_variant(const std::string& name);  // throws std::invalid_argument

}  // namespace gridfuzz::mlx
