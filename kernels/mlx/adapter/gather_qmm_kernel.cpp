// mlx.gather_qmm: the MoE expert matmul through MLX's GatherQMM in mlx-lm's sorted form: one
// slice per (token, expert) pair with M = 1, B = tokens*top_k slices, lhs = pair / top_k, rhs =
// the pair's expert. MLX puts B on grid.z (qmm_sm80.cu:77-80, qmv.cu:320-321), so
// tokens*top_k > 65535 is refused.
#include "gridfuzz/mlx/register.hpp"
#include "mlx_matmul_kernel.hpp"

namespace gridfuzz::mlx {
namespace {

class GatherQmmKernel final : public MlxMatmulKernel {
 public:
  std::string name() const override { return "mlx.gather_qmm"; }
  std::string description() const override {
    return "MLX 846d176 quantized gather matmul (MoE, sorted form): MLX's gather_qmv / qmm_sm80 kernels with MLX's "
           "own host geometry (upstream: B = tokens*top_k on grid.z) vs the same kernels over batch chunks (chunked)";
  }
  std::vector<AxisSpec> axes() const override {
    std::vector<AxisSpec> a{
        {"tokens", "tokens routed through the layer", "16", {}, 1, 1 << 20},
        {"top_k", "experts per token", "8", {}, 1, 16},
        {"experts", "experts in the weight stack", "128", {}, 1, 512},
        {"rows", "N, output columns per expert (a multiple of 128)", "768", {}, 128, 1 << 20, 128},
    };
    for (AxisSpec& q : quantization_axes()) a.push_back(std::move(q));
    return a;
  }
  std::optional<std::string> check(const Params& p) const override {
    if (p.get_u64("top_k") > p.get_u64("experts")) return "top_k must not exceed experts";
    return MlxMatmulKernel::check(p);
  }
  affine::MatmulShape shape(const Params& p) const override {
    affine::MatmulShape s;
    s.gather = true;
    s.m = 1;
    s.n = p.get_u64("rows");
    s.batches = p.get_u64("tokens") * p.get_u64("top_k");
    s.x_batches = p.get_u64("tokens");
    s.experts = p.get_u64("experts");
    read_quantization(p, s);
    return s;
  }
};

}  // namespace

std::shared_ptr<const Kernel> make_gather_qmm_kernel() { return std::make_shared<GatherQmmKernel>(); }

}  // namespace gridfuzz::mlx
