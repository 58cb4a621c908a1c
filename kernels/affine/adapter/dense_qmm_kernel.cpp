// affine.qmm: the dense LM head, out[T, V] = x[T, K] * dequant(w[V, K])^T (one weight matrix,
// broadcast over the batch). Upstream's int32 M*N makes tokens*vocab >= 2^31 fail
// (docs/KERNELS.md, "Boundary formulas").
#include "affine_matmul_kernel.hpp"
#include "gridfuzz/affine/register.hpp"

namespace gridfuzz::affine {
namespace {

class DenseQmmKernel final : public AffineMatmulKernel {
 public:
  DenseQmmKernel()
      : AffineMatmulKernel(
            MatmulCall::dense, "affine.qmm",
            "MLX affine quantized matmul, dense (LM head): legacy int32 M*N batch count (l = 0 -> grid.z 0, "
            "div-by-zero, wrapped l accepted) vs fixed row chunking with per-launch int32/int64 index "
            "dispatch; hopper: 2-64 tokens with 4-bit weights qmm_small (swap-AB mma.sync, the weights read once "
            "for all tokens), else below 8 tokens with 4-bit weights qmv_stream (x staged once per block, warps "
            "loop over rows), else CUTLASS sm90 mixed-input GEMM (wgmma + TMA) when the device is sm_90 and the "
            "call is 4-bit bf16 with group_size 64 or 128, else the fixed path") {}
  std::vector<std::string> variants() const override { return {"legacy", "fixed", "hopper"}; }
  std::unique_ptr<BoundCase> bind(const Params& p, const std::string& variant) const override {
    if (variant == "hopper") return make_hopper_qmm_case(shape(p));
    return AffineMatmulKernel::bind(p, variant);
  }
};

}  // namespace

std::shared_ptr<const Kernel> make_dense_qmm_kernel() { return std::make_shared<DenseQmmKernel>(); }

}  // namespace gridfuzz::affine
