// mlx.qmm: the dense LM head through MLX's QuantizedMatmul: out[T, V] = x[T, K] * dequant(w[V, K])^T.
// MLX's int M*N (quantized.cpp:104, qmm_utils.h:12, qmv.cu:421) makes tokens*vocab >= 2^31 fail.
#include "gridfuzz/mlx/register.hpp"
#include "mlx_matmul_kernel.hpp"

namespace gridfuzz::mlx {
namespace {

class DenseQmmKernel final : public MlxMatmulKernel {
 public:
  std::string name() const override { return "mlx.qmm"; }
  std::string description() const override {
    return "MLX 846d176 quantized matmul, dense (LM head): MLX's qmv / qmm_sm80 kernels with MLX's own host "
           "geometry (upstream: int M*N batch count) vs the same kernels over row chunks (chunked)";
  }
  std::vector<AxisSpec> axes() const override {
    std::vector<AxisSpec> a{
        {"tokens", "M, rows of x and out", "16", {}, 1, 1 << 22},
        {"vocab", "N, output columns (a multiple of 128)", "32000", {}, 128, 1 << 22, 128},
    };
    for (AxisSpec& q : quantization_axes()) a.push_back(std::move(q));
    return a;
  }
  affine::MatmulShape shape(const Params& p) const override {
    affine::MatmulShape s;
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

}  // namespace gridfuzz::mlx
