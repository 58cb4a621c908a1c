// affine.qmm, variant "hopper": the dispatch a Hopper build would make. 2 to 64 tokens with 4-bit
// weights: qmm_small's launches where it can run (kernels/affine/cuda/qmm_small_kernel.cuh); else
// fewer than 8 tokens with 4-bit weights: qmv_stream's launches (qmv_stream_kernel.cuh). Otherwise,
// when the device is sm_90 and the call fits the CUTLASS kernel (hopper_ineligible), one launch of
// CUTLASS's sm90 mixed-input GEMM (kernels/affine/cuda/hopper_qmm.cu); otherwise the fixed
// launches. The plan says which (plan_hopper), with the same rule the launch uses.
#include <memory>

#include "affine_matmul_kernel.hpp"
#include "gridfuzz/affine/device_ops.hpp"
#include "gridfuzz/affine/hopper_plan.hpp"
#include "gridfuzz/affine/qmm_small_plan.hpp"
#include "gridfuzz/affine/qmv_stream_plan.hpp"
#include "hopper_qmm.hpp"

namespace gridfuzz::affine {
namespace {

void* device_ptr(CUdeviceptr p, std::uint64_t byte_offset) {
  return reinterpret_cast<void*>(static_cast<std::uintptr_t>(p + byte_offset));
}

class HopperQmmCase final : public AffineMatmulCase {
 public:
  explicit HopperQmmCase(const MatmulShape& shape) : AffineMatmulCase(shape, false) {}

  // The MLX buffers, then the N-major copies of scales and biases CUTLASS reads (made once in
  // fill_inputs, as weight preparation; the CPU reference reads the MLX originals).
  std::vector<BufferSpec> buffers() const override {
    std::vector<BufferSpec> specs = AffineMatmulCase::buffers();
    const ElementType t = s_.dtype == Dtype::float16 ? ElementType::f16 : ElementType::bf16;
    specs.push_back({"scales_mn", BufferRole::input, t, s_.n * s_.groups_per_row()});
    specs.push_back({"biases_mn", BufferRole::input, t, s_.n * s_.groups_per_row()});
    return specs;
  }
  // One call reads x, w and one copy of scales and biases, and writes out.
  std::uint64_t bytes_moved() const override {
    std::uint64_t bytes = 0;
    for (const BufferSpec& b : buffers())
      if (b.name != "scales" && b.name != "biases") bytes += b.bytes();
    return bytes;
  }
  void fill_inputs(std::uint64_t seed, const BufferSet& bufs, CUstream stream) const override {
    AffineMatmulCase::fill_inputs(seed, bufs, stream);
    groups_to_n_major(bufs.ptr("scales"), bufs.ptr("scales_mn"), s_.n, s_.groups_per_row(), stream);
    groups_to_n_major(bufs.ptr("biases"), bufs.ptr("biases_mn"), s_.n, s_.groups_per_row(), stream);
  }
  LaunchPlan plan(const DeviceLimits& limits) const override { return plan_hopper(s_, limits).plan; }
  std::vector<SplitPiece> split(const DeviceLimits& limits) const override {
    const HopperPlan h = plan_hopper(s_, limits);
    if (!h.stream_qmv && !h.small_qmm) return split_pieces(s_, limits);
    std::vector<SplitPiece> tokens;
    for (std::uint64_t r = 0; r < s_.m; ++r) tokens.push_back({"tokens", r, r + 1});
    return tokens;
  }
  ComparePolicy compare_policy() const override {
    return {true, 0, 0,
            "bit-exact: the reference runs the same kernel on every piece (qmm_small one token at a time, in a "
            "token tile of 8 whatever the call's tile, so each token lands in another MMA column; qmv_stream one "
            "token at a time on a grid of one block per SM, so each row lands on another warp and loop step; "
            "CUTLASS's GEMM on token chunks; or the fixed kernels when none is eligible); each output element is "
            "one warp's, one CTA's or (qmm_small) one block's two fixed-order K halves added in a fixed order, "
            "with no split-K across blocks or stream-K, so its place in the grid cannot change it"};
  }
  void launch(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
              CUstream stream) const override {
    const HopperPlan h = plan_hopper(s_, limits);
    if (h.stream_qmv || h.small_qmm) {
      const MatmulBuffers b = matmul_buffers(bufs);
      for (const AffineLaunch& l : h.launches) launch_planned(l, s_, b, launcher, stream, true);
      return;
    }
    if (!h.hopper) {
      const MatmulBuffers b = matmul_buffers(bufs);
      for (const AffineLaunch& l : plan_matmul(s_, Variant::fixed, limits).launches)
        launch_planned(l, s_, b, launcher, stream, true);
      return;
    }
    launch_hopper_qmm(h.plan.launches.front(), args(bufs, limits, 0, s_.m), launcher, stream);
  }
  void launch_split_reference(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
                              CUstream stream) const override {
    const HopperPlan whole = plan_hopper(s_, limits);
    if (whole.small_qmm) {
      // Each token alone (split()'s pieces): qmm_small with one token tile, its token in MMA column 0
      // of 8 instead of its place in the call's tile; the whole call's K parts (the same K order).
      const MatmulBuffers b = matmul_buffers(bufs);
      const int parts = whole.launches.front().k_parts;
      for (std::uint64_t r = 0; r < s_.m; ++r) {
        MatmulShape piece = s_;
        piece.m = 1;
        for (AffineLaunch l : plan_qmm_small(piece, limits, parts).launches) {
          l.row_begin = r;
          launch_planned(l, s_, b, launcher, stream, true);
        }
      }
      return;
    }
    if (whole.stream_qmv) {
      // Each token alone (split()'s pieces), with qmv_stream on one block per SM instead of
      // kQmvStreamBlocksPerSm: the rows move to other warps and other steps of the warps' loops.
      const MatmulBuffers b = matmul_buffers(bufs);
      for (std::uint64_t r = 0; r < s_.m; ++r) {
        MatmulShape piece = s_;
        piece.m = 1;
        for (AffineLaunch l : plan_qmv_stream(piece, limits, 1).launches) {
          l.row_begin = r;
          launch_planned(l, s_, b, launcher, stream, true);
        }
      }
      return;
    }
    if (!whole.hopper) {
      const MatmulBuffers b = matmul_buffers(bufs);
      for (const AffineLaunch& l : reference_launches(s_, limits)) launch_planned(l, s_, b, launcher, stream, true);
      return;
    }
    for (const SplitPiece& p : split_pieces(s_, limits)) {
      MatmulShape piece = s_;
      piece.m = p.end - p.begin;
      const HopperPlan h = plan_hopper_gemm(piece, limits);  // a chunk of fewer than 8 tokens too
      launch_hopper_qmm(h.plan.launches.front(), args(bufs, limits, p.begin, piece.m), launcher, stream);
    }
  }

 private:
  // Tokens [row_begin, row_begin + rows): x and out moved by whole rows, in 64-bit.
  HopperQmmArgs args(const BufferSet& bufs, const DeviceLimits& limits, std::uint64_t row_begin,
                     std::uint64_t rows) const {
    HopperQmmArgs a;
    a.x = device_ptr(bufs.ptr("x"), row_begin * s_.k * 2);
    a.w = device_ptr(bufs.ptr("w"), 0);
    a.scales_mn = device_ptr(bufs.ptr("scales_mn"), 0);
    a.biases_mn = device_ptr(bufs.ptr("biases_mn"), 0);
    a.out = device_ptr(bufs.ptr("out"), row_begin * s_.n * 2);
    a.tokens = static_cast<std::int64_t>(rows);
    a.n = static_cast<std::int64_t>(s_.n);
    a.k = static_cast<std::int64_t>(s_.k);
    a.group_size = s_.group_size;
    a.sm_count = limits.sm_count;
    return a;
  }
};

}  // namespace

std::unique_ptr<BoundCase> make_hopper_qmm_case(const MatmulShape& shape) {
  return std::make_unique<HopperQmmCase>(shape);
}

}  // namespace gridfuzz::affine
