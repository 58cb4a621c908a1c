// affine.qmm: the dense LM head, out[T, V] = x[T, K] * dequant(w[V, K])^T (one weight matrix,
// broadcast over the batch). Upstream's int32 M*N makes tokens*vocab >= 2^31 fail
// (docs/KERNELS.md, "Boundary formulas").
#include "affine_matmul_kernel.hpp"
#include "gridfuzz/affine/register.hpp"

namespace gridfuzz::affine {
namespace {

class DenseQmmKernel final : public AffineMatmulKernel {
 public:
  std::string name() const override { return "affine.qmm"; }
  std::string description() const override {
    return "MLX affine quantized matmul, dense (LM head): legacy int32 M*N batch count (l = 0 -> grid.z 0, "
           "div-by-zero, wrapped l accepted) vs fixed row chunking with per-launch int32/int64 index "
           "dispatch; hopper: below 8 tokens with 4-bit weights qmv_stream (x staged once per block, warps "
           "loop over rows), else CUTLASS sm90 mixed-input GEMM (wgmma + TMA) when the device is sm_90 and the "
           "call is 4-bit bf16 with group_size 64 or 128, else the fixed path";
  }
  std::vector<std::string> variants() const override { return {"legacy", "fixed", "hopper"}; }
  std::unique_ptr<BoundCase> bind(const Params& p, const std::string& variant) const override {
    if (variant == "hopper") return make_hopper_qmm_case(shape(p));
    return AffineMatmulKernel::bind(p, variant);
  }
  std::vector<AxisSpec> axes() const override {
    std::vector<AxisSpec> a{
        {"tokens", "M, rows of x and out", "16", {}, 1, 1 << 22},
        {"vocab", "N, output columns (a multiple of 128)", "32000", {}, 128, 1 << 22, 128},
    };
    for (AxisSpec& q : quantization_axes()) a.push_back(std::move(q));
    return a;
  }
  std::optional<std::string> check(const Params& p) const override { return check_matmul(shape(p)); }
  MatmulShape shape(const Params& p) const override {
    MatmulShape s;
    s.gather = false;
    s.m = p.get_u64("tokens");
    s.n = p.get_u64("vocab");
    s.batches = 1;
    s.x_batches = 1;
    s.experts = 1;
    read_quantization(p, s);
    return s;
  }
};

}  // namespace

std::shared_ptr<const Kernel> make_dense_qmm_kernel() { return std::make_shared<DenseQmmKernel>(); }

}  // namespace gridfuzz::affine
