#pragma once
// Shared helpers of the MLX plan tests: the two kernels, their params and the prediction of a
// case from MLX's host code (no GPU).
#include <cstdint>
#include <string>

#include "gridfuzz/affine/register.hpp"
#include "gridfuzz/device_limits.hpp"
#include "gridfuzz/mlx/register.hpp"
#include "gridfuzz/predictor.hpp"
#include "mlx_matmul_kernel.hpp"

namespace gridfuzz::mlx::test {

inline DeviceLimits sm90() { return *device_preset("sm_90"); }

inline const Kernel& dense_kernel() {
  static const auto k = make_dense_qmm_kernel();
  return *k;
}
inline const Kernel& gather_kernel() {
  static const auto k = make_gather_qmm_kernel();
  return *k;
}
inline const Kernel& affine_dense_kernel() {
  static const auto k = affine::make_dense_qmm_kernel();
  return *k;
}
inline const Kernel& affine_gather_kernel() {
  static const auto k = affine::make_gather_qmm_kernel();
  return *k;
}

inline Params dense_params(std::uint64_t tokens, std::uint64_t vocab, std::uint64_t cols = 4096) {
  Params p = Params::defaults(dense_kernel().axes());
  p.set("tokens", std::to_string(tokens));
  p.set("vocab", std::to_string(vocab));
  p.set("cols", std::to_string(cols));
  return p;
}

inline Params gather_params(std::uint64_t tokens, std::uint64_t top_k, std::uint64_t experts = 128,
                            std::uint64_t rows = 768, std::uint64_t cols = 2048) {
  Params p = Params::defaults(gather_kernel().axes());
  p.set("tokens", std::to_string(tokens));
  p.set("top_k", std::to_string(top_k));
  p.set("experts", std::to_string(experts));
  p.set("rows", std::to_string(rows));
  p.set("cols", std::to_string(cols));
  return p;
}

inline affine::MatmulShape shape_of(const Kernel& k, const Params& p) {
  return dynamic_cast<const affine::AffineMatmulKernel&>(k).shape(p);
}

inline Prediction predict_of(const Kernel& k, const Params& p, const std::string& variant) {
  return predict(k.plan(p, variant, sm90()), sm90());
}

// ceil(2^31 / n): the first M whose int32 M*N is negative.
inline std::uint64_t first_wrapping_rows(std::uint64_t n) { return ((1ull << 31) + n - 1) / n; }

}  // namespace gridfuzz::mlx::test
