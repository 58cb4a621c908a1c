#pragma once
// What mlx.qmm and mlx.gather_qmm share. MLX's affine layout is the one gridfuzz's affine family
// reproduces (uint32 words of LSB-first quants, a scale and a bias per group, activations and
// output in bf16/f16), so the buffers, the random inputs and the float64 CPU samples are the
// affine family's (AffineMatmulKernel): a disagreement between MLX's kernels and that reference
// on a legal shape is a finding about one of the two. Planning, launching and the split reference
// are MLX's own host code (plan/mlx_call.hpp).
#include <string>
#include <vector>

#include "../plan/mlx_call.hpp"
#include "affine_matmul_kernel.hpp"

namespace gridfuzz::mlx {

class MlxMatmulKernel : public affine::AffineMatmulKernel {
 public:
  std::vector<std::string> variants() const override { return {"upstream", "chunked"}; }
  std::optional<std::string> check(const Params& p) const override;
  LaunchPlan plan(const Params& p, const std::string& variant, const DeviceLimits& limits) const override;
  std::vector<SplitPiece> split(const Params& p, const DeviceLimits& limits) const override;
  ComparePolicy compare_policy(const Params& p, const std::string& variant) const override;
  void launch(const Params& p, const std::string& variant, const DeviceLimits& limits, const BufferSet& bufs,
              device::Launcher& launcher, CUstream stream) const override;
  void launch_split_reference(const Params& p, const DeviceLimits& limits, const BufferSet& bufs,
                              device::Launcher& launcher, CUstream stream) const override;

 protected:
  // MLX's qmv dequantizes into the activation type for every bit width (qmv.cu:29-40: w_dq =
  // w_dq * T(scale) + bias in T) and accumulates 8-bit products in float.
  bool qmv_rounds_8bit_weights() const override { return true; }
};

Variant require_variant(const std::string& name);  // throws std::invalid_argument

}  // namespace gridfuzz::mlx
