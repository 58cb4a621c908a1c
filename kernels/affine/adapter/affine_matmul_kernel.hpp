#pragma once
// What affine.qmm (dense LM head) and affine.gather_qmm (MoE) share: both are one MLX quantized
// matmul call described by a MatmulShape, planned by plan_matmul, launched through the same qmv /
// qmm kernels and checked against the same references. The axes, constraints and shape of the
// two calls are here too, shared with mlx.qmm and mlx.gather_qmm (kernels/mlx/adapter): a subclass
// names its call (MatmulCall) and itself.
#include <string>
#include <utility>
#include <vector>

#include "gridfuzz/affine/device_ops.hpp"
#include "gridfuzz/affine/matmul_plan.hpp"
#include "gridfuzz/kernel.hpp"

namespace gridfuzz::affine {

// One affine-layout matmul case: what our kernels and MLX's share (buffers, inputs, the CPU
// reference). The plan and the launches are the subclass's (our legacy/fixed, MLX's own).
class AffineMatmulCase : public BoundCase {
 public:
  // qmv_rounds_8bit_weights: whether the qmv path rounds 8-bit dequantized weights (scale*q +
  // bias) to the activation type before its float accumulation (MLX's qmv does, qmv.cu
  // dequant_fma; gridfuzz's affine qmv does not). The CPU reference's tolerance for 8-bit qmv then
  // takes that rounding in (the bound of the sub-8-bit qmv, over chunks of 8).
  AffineMatmulCase(const MatmulShape& shape, bool qmv_rounds_8bit_weights)
      : s_(shape), qmv_rounds_8bit_weights_(qmv_rounds_8bit_weights) {}

  std::vector<BufferSpec> buffers() const override;
  void fill_inputs(std::uint64_t seed, const BufferSet& bufs, CUstream stream) const override;
  // On cpu_reference_threads() host threads (gridfuzz/parallel_for.hpp).
  std::vector<ReferenceSample> cpu_reference(const BufferSet& bufs, std::uint64_t seed,
                                             std::size_t count) const override;
  // The same samples computed on `threads` host threads (the reads stay on the calling thread).
  std::vector<ReferenceSample> cpu_reference(const BufferSet& bufs, std::uint64_t seed, std::size_t count,
                                             std::size_t threads) const;

 protected:
  // The call's buffers of buffers(), found by name: x, w, scales, biases, lhs_indices and
  // rhs_indices (a gather call; 0 for a dense one), out.
  MatmulBuffers matmul_buffers(const BufferSet& bufs) const;

  MatmulShape s_;
  bool qmv_rounds_8bit_weights_;
};

// The two calls both families model (affine.* and mlx.*): the dense LM head, out[T, V] =
// x[T, K] * dequant(w[V, K])^T, and the MoE gather in mlx-lm's sorted form (one slice per (token,
// expert) pair with M = 1).
enum class MatmulCall { dense, gather };

// A matmul kernel of either family: the call's axes, constraints and shape; the family gives its
// variants and cases (these: our kernels, legacy and fixed).
class AffineMatmulKernel : public Kernel {
 public:
  AffineMatmulKernel(MatmulCall call, std::string name, std::string description)
      : call_(call), name_(std::move(name)), description_(std::move(description)) {}

  std::string name() const override { return name_; }
  std::string description() const override { return description_; }
  std::vector<std::string> variants() const override { return {"legacy", "fixed"}; }
  // The call's own axes (dense: tokens, vocab; gather: tokens, top_k, experts, rows), then cols,
  // bits, group_size and dtype.
  std::vector<AxisSpec> axes() const override;
  // top_k <= experts (gather), then the qmm_sm80 conditions on the shape (docs/KERNELS.md,
  // "MLX dispatch").
  std::optional<std::string> check(const Params& p) const override;
  // The call's sizes; the params must pass check().
  MatmulShape shape(const Params& p) const;
  // Our qmv/qmm under the legacy or fixed host geometry.
  std::unique_ptr<BoundCase> bind(const Params& p, const std::string& variant) const override;

 private:
  MatmulCall call_;
  std::string name_, description_;
};

// Buffer order of both kernels: x, w, scales, biases, [lhs_indices, rhs_indices,] out.
struct MatmulBufferIndex {
  std::size_t x = 0, w = 1, scales = 2, biases = 3, lhs = 0, rhs = 0, out = 4;
  bool gather = false;
  static MatmulBufferIndex of(const MatmulShape& s);
};

Variant require_variant(const std::string& name);  // throws std::invalid_argument

// affine.qmm's "hopper" variant (hopper_qmm_case.cpp): CUTLASS's sm90 mixed-input GEMM where the
// device and shape allow it (plan_hopper), else the fixed path.
std::unique_ptr<BoundCase> make_hopper_qmm_case(const MatmulShape& shape);

}  // namespace gridfuzz::affine
