// affine.gather_qmm: the MoE expert matmul in mlx-lm's sorted form
// (docs/KERNELS.md, "mlx-lm gather_qmm"): one slice per (token, expert) pair with M = 1,
// l = tokens*top_k slices on grid.z, lhs index = pair / top_k, rhs index = the pair's expert.
// Upstream puts l on grid.z, so tokens*top_k > 65535 is refused.
#include "affine_matmul_kernel.hpp"
#include "gridfuzz/affine/register.hpp"

namespace gridfuzz::affine {
namespace {

class GatherQmmKernel final : public AffineMatmulKernel {
 public:
  std::string name() const override { return "affine.gather_qmm"; }
  std::string description() const override {
    return "MLX affine quantized gather matmul (MoE, sorted form): legacy l = tokens*top_k on grid.z vs fixed "
           "batch chunks of max_grid_z";
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
    return check_matmul(shape(p));
  }
  MatmulShape shape(const Params& p) const override {
    MatmulShape s;
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

}  // namespace gridfuzz::affine
