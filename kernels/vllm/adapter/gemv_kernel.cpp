// vllm.moe_vec: vLLM's MoE GEMV call (ggml_moe_a8_vec, gguf_kernel.cu:395-530): upstream's
// quantize_q8_1 over the activation rows, then upstream's moe_vec_q, both compiled unmodified
// (upstream_kernels.cu). vllm.mmvq: its dense sibling (ggml_mul_mat_vec_a8, gguf_kernel.cu:104-218,
// then mul_mat_vec_q); one class serves both, as for the GGUF family's own kernels. The host side
// of each call is reproduced in plan/moe_vec_plan.cpp, every formula cited, and issued through gridfuzz's one launch path, so each launch is recorded with
// the driver's own answer (docs/DECISIONS.md, "Upstream kernels").
//   upstream: upstream's geometry and int arithmetic, launches unchecked (as upstream).
//   chunked:  the same kernels under the minimal host fix (grid.z chunked, offsets in 64 bits),
//             launches checked.
// Buffers, inputs and the CPU reference are the GGUF family's (kernels/gguf/adapter/gemv_call_parts):
// the same float64 reference judges our kernels and upstream's. `dtype` (f32, f16, bf16) is the
// activation and output type upstream dispatches on (activation_dtype.hpp); for 16-bit the parts
// are scalar_call_parts.hpp's.
#include <map>
#include <mutex>
#include <tuple>
#include <stdexcept>

#include "../cuda/upstream_kernels.hpp"
#include "../plan/moe_vec_plan.hpp"
#include "activation_dtype.hpp"
#include "gemv_call_parts.hpp"
#include "gridfuzz/device/function.hpp"
#include "gridfuzz/gguf/formats.hpp"
#include "gridfuzz/vllm/register.hpp"
#include "scalar_call_parts.hpp"
#include "upstream_launch.hpp"

namespace gridfuzz::vllm {
namespace {

using gguf::GemvBuffers;
using gguf::MoeCallShape;

// moe_vec_q or mul_mat_vec_q of type t and scalar_t k, resolved once.
const device::Function& gemv_function(bool dense, gguf::QuantType t, ScalarKind k) {
  static std::mutex mutex;
  static std::map<std::tuple<bool, gguf::QuantType, ScalarKind>, device::Function> cache;
  const std::lock_guard lock(mutex);
  const auto key = std::make_tuple(dense, t, k);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  const std::string args = to_string(k) + "," + std::string(gguf::to_string(t)) + ">";
  return cache
      .emplace(key, dense ? device::Function::from_symbol(mmvq_kernel(t, k), "vllm mul_mat_vec_q<" + args)
                          : device::Function::from_symbol(moe_vec_kernel(t, k), "vllm moe_vec_q<" + args))
      .first->second;
}

class GemvCase final : public BoundCase {
 public:
  GemvCase(const MoeCallShape& shape, ScalarKind dtype, MoeVecVariant variant) : s_(shape), k_(dtype), v_(variant) {}

  LaunchPlan plan(const DeviceLimits& limits) const override {
    const MoeVecCall call = moe_vec_call(v_, s_, upstream_constants(), limits);
    LaunchPlan plan;
    for (const QuantizeLaunch& l : call.quantize) plan.launches.push_back(l.spec);
    for (const MoeVecLaunch& l : call.gemv) plan.launches.push_back(l.spec);
    plan.indices = call.indices;
    plan.host_error = call.host_error;
    return plan;
  }

  std::vector<BufferSpec> buffers() const override { return scalar_call_buffers(s_, k_); }
  std::uint64_t bytes_moved() const override { return scalar_call_bytes_moved(s_, k_); }
  std::vector<SplitPiece> split(const DeviceLimits& limits) const override {
    std::vector<SplitPiece> pieces;
    for (const gguf::TokenRange& r : moe_vec_reference_pieces(s_, limits))
      pieces.push_back({s_.dense ? "nvecs" : "tokens", r.begin, r.end});
    return pieces;
  }
  ComparePolicy compare_policy() const override {
    return {true, 0, 0, "the split reference runs the same upstream kernels with the same per-element order: bit-exact"};
  }

  void fill_inputs(std::uint64_t seed, const BufferSet& bufs, CUstream stream) const override {
    fill_scalar_call_inputs(s_, k_, seed, bufs, stream);
  }
  // Buffers, inputs and the reference (the chunked call over token pieces) are the shape's.
  bool reference_same_for_every_variant() const override { return true; }

  void launch(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
              CUstream stream) const override {
    issue(moe_vec_call(v_, s_, upstream_constants(), limits), s_, k_, bufs, 0, 0, launcher, stream,
          v_ == MoeVecVariant::chunked);
  }

  // The chunked call over token pieces small enough for one launch each, from pointers advanced
  // to the piece: each piece is a small, legal upstream call.
  void launch_split_reference(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
                              CUstream stream) const override {
    const MoeCallShape& s = s_;
    const std::uint64_t act_rows_per_token = s.proj == gguf::Projection::down ? s.top_k : 1;
    for (const gguf::TokenRange& r : moe_vec_reference_pieces(s, limits)) {
      MoeCallShape piece = s;
      piece.tokens = r.end - r.begin;
      issue(moe_vec_call(MoeVecVariant::chunked, piece, upstream_constants(), limits), s, k_, bufs,
            r.begin * act_rows_per_token, r.begin * s.top_k, launcher, stream, true);
    }
  }

  std::vector<ReferenceSample> cpu_reference(const BufferSet& bufs, std::uint64_t seed,
                                             std::size_t count) const override {
    // Upstream's q4_1/q5_1 dot rounds its scale products to fp16 (vecdotq.cuh:86, :153): the
    // tolerance says so (docs/upstream/vllm-gguf.md, "Finding 3"). A 16-bit dst adds its rounding.
    return scalar_call_cpu_reference(s_, k_, bufs, seed, count, {.fp16_scale_products = true});
  }

 private:

  // Issues `call` over the buffers of the whole shape `s`, starting at activation row `act0` and
  // pair `pair0` (the split reference's pieces; 0 for the production call).
  static void issue(const MoeVecCall& call, const MoeCallShape& s, ScalarKind k, const BufferSet& bufs,
                    std::uint64_t act0, std::uint64_t pair0, device::Launcher& launcher, CUstream stream,
                    bool checked) {
    void* x = advance_scalar(bufs.as<void>(GemvBuffers::x), k, static_cast<std::int64_t>(act0 * s.cols));
    int* q8 = bufs.as<int>(GemvBuffers::q8_1(s)) + act0 * s.token_stride();
    issue_quantize(call.quantize, k, x, q8, launcher, stream, checked);
    const void* vx = bufs.as<std::uint8_t>(GemvBuffers::weights);
    void* dst = advance_scalar(bufs.as<void>(GemvBuffers::dst(s)), k, static_cast<std::int64_t>(pair0 * s.rows));
    const device::Function& fn = gemv_function(s.dense, s.quant, k);
    if (s.dense) {
      for (const MoeVecLaunch& l : call.gemv) {
        const void* vy = q8 + l.q8_offset;
        void* d = advance_scalar(dst, k, static_cast<std::int64_t>(l.dst_offset));
        int ncols = l.ncols, nrows = l.nrows, nvecs = l.nvecs;
        void* args[] = {&vx, &vy, &d, &ncols, &nrows, &nvecs};
        launch_upstream(launcher, fn, l.spec, args, stream, checked);
      }
      return;
    }
    const int* ids = bufs.as<int>(GemvBuffers::ids) + pair0;
    for (const MoeVecLaunch& l : call.gemv) {
      const void* vy = q8 + l.q8_offset;
      void* d = advance_scalar(dst, k, static_cast<std::int64_t>(l.dst_offset));
      const int* topk_ids = ids + l.ids_offset;
      int top_k = l.top_k, ncols = l.ncols, nrows = l.nrows, token_stride = l.token_stride;
      void* args[] = {&vx, &vy, &d, &topk_ids, &top_k, &ncols, &nrows, &token_stride};
      launch_upstream(launcher, fn, l.spec, args, stream, checked);
    }
  }

  MoeCallShape s_;
  ScalarKind k_;
  MoeVecVariant v_;
};

class GemvKernel final : public Kernel {
 public:
  explicit GemvKernel(bool dense) : dense_(dense) {}

  std::string name() const override { return dense_ ? "vllm.mmvq" : "vllm.moe_vec"; }
  std::string description() const override {
    return dense_ ? "vLLM's GGUF dense GEMV (vllm-gguf-plugin 0.0.5, unmodified): q8_1 quantize + mul_mat_vec_q on "
                    "grid (rows, nvecs, 1); upstream unchecked, chunked = grid.y chunked on the host"
                  : "vLLM's GGUF MoE GEMV (vllm-gguf-plugin 0.0.5, unmodified): q8_1 quantize + moe_vec_q on grid "
                    "(rows, 1, tokens*top_k); upstream unchecked, chunked = grid.z chunked on the host";
  }
  std::vector<std::string> variants() const override { return {"upstream", "chunked"}; }
  std::vector<AxisSpec> axes() const override {
    std::vector<std::string> types;
    for (gguf::QuantType t : moe_vec_quant_types()) types.emplace_back(gguf::to_string(t));
    std::vector<AxisSpec> a = gguf::gemv_shape_axes(dense_, "upstream", types);
    a.push_back(dtype_axis());
    return a;
  }
  std::optional<std::string> check(const Params& p) const override {
    return gemv_shape_check([&] {
      scalar_kind_from(p);
      return shape(p);
    });
  }

  std::unique_ptr<BoundCase> bind(const Params& p, const std::string& variant) const override {
    return std::make_unique<GemvCase>(shape(p), scalar_kind_from(p), parse_moe_vec_variant(variant));
  }

 private:
  // The GGUF call shape with its own dtype f32: the vLLM case keeps the activation dtype beside it.
  MoeCallShape shape(const Params& p) const {
    const Params f32 = with_f32_shape_dtype(p);
    return dense_ ? gguf::mmvq_shape_from(f32) : gguf::moe_shape_from(f32);
  }

  bool dense_;
};

}  // namespace

std::shared_ptr<const Kernel> make_moe_vec_kernel() { return std::make_shared<GemvKernel>(false); }
std::shared_ptr<const Kernel> make_mmvq_kernel() { return std::make_shared<GemvKernel>(true); }


}  // namespace gridfuzz::vllm
