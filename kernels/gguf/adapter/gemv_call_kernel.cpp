// gguf.moe_vec and gguf.mmvq: one production call = quantize the activation rows to q8_1, then
// the GEMV (one warp per output element). The two share everything but the expert indirection,
// so one adapter class serves both (dense = mmvq). Buffers, inputs and the CPU reference are
// gemv_call_parts.hpp's (shared with vllm.moe_vec).
// Decision: the q8_1 buffer is the call's scratch but is declared an OUTPUT. The harness then
// poisons it (a quantize launch that never ran leaves poison: `unwritten`), compares it bit for bit
// with the split reference's own q8_1, and guards it; the CPU reference also checks sampled words
// of it against the CPU quantizer. The data fill makes a poison collision impossible
// (random_fill.hpp). The moe_vec/mmvq result is dst.
#include <algorithm>
#include <mutex>
#include <optional>
#include <stdexcept>

#include "call_shape.hpp"
#include "gemv_call_parts.hpp"
#include "gemv_launch.hpp"
#include "gridfuzz/checked_math.hpp"
#include "gridfuzz/device/device_buffer.hpp"
#include "gridfuzz/gguf/formats.hpp"
#include "gridfuzz/gguf/register.hpp"
#include "launch_geometry.hpp"
#include "quantize_q8_1_launch.hpp"

namespace gridfuzz::gguf {
namespace {

std::vector<std::string> weight_type_names() {
  std::vector<std::string> names;
  for (QuantType t : weight_quant_types()) names.emplace_back(to_string(t));
  return names;
}

// What a variant's production call does.
struct VariantPlan {
  QuantizeGeometry quantize;
  GemvGeometry gemv;
  bool checked;
};

// The fixed moe_vec layout (rows_x for few pairs, pairs_x for many); see launch_geometry.hpp and
// evidence/performance-log.md "GGUF MoE GEMV" for the measurement behind it.
constexpr GemvGeometry kMoeFixedGeometry = GemvGeometry::fixed;

VariantPlan variant_plan(const std::string& kernel, bool dense, const std::string& variant) {
  // legacy: vLLM's tiled quantizer (int offsets) and the upstream grid, launches unchecked.
  if (variant == "legacy") return {QuantizeGeometry::upstream_tiles, GemvGeometry::legacy, false};
  if (variant == "fixed") return {QuantizeGeometry::tiles_64, dense ? GemvGeometry::rows_x : kMoeFixedGeometry, true};
  if (!dense && variant == "zchunk") return {QuantizeGeometry::tiles_64, GemvGeometry::zchunk, true};
  if (!dense && variant == "rows_x") return {QuantizeGeometry::tiles_64, GemvGeometry::rows_x, true};
  if (!dense && variant == "pairs_x") return {QuantizeGeometry::tiles_64, GemvGeometry::pairs_x, true};
  // by_expert: the pairs grouped by expert on the device, each used expert's rows read once.
  if (!dense && variant == "by_expert") return {QuantizeGeometry::tiles_64, GemvGeometry::by_expert, true};
  throw std::invalid_argument(kernel + ": unknown variant '" + variant + "'");
}

class GemvCallCase final : public BoundCase {
 public:
  GemvCallCase(const MoeCallShape& shape, const VariantPlan& variant) : s_(shape), v_(variant) {}

  LaunchPlan plan(const DeviceLimits& limits) const override {
    LaunchPlan plan;
    for (const auto& l : quantize_launches(v_.quantize, s_.activation_rows(), s_.cols, limits))
      plan.launches.push_back(l.spec);
    for (const auto& l : expert_group_launches(v_.gemv, s_)) plan.launches.push_back(l);
    for (const auto& l : gemv_launches(v_.gemv, s_, limits)) plan.launches.push_back(l.spec);
    plan.indices = quantize_indices(v_.quantize, s_.activation_rows(), s_.cols, limits);
    for (auto& r : gemv_indices(v_.gemv, s_)) plan.indices.push_back(r);
    return plan;
  }

  std::vector<BufferSpec> buffers() const override { return gemv_call_buffers(s_); }
  std::uint64_t bytes_moved() const override { return gemv_call_bytes_moved(s_); }

  std::vector<SplitPiece> split(const DeviceLimits& limits) const override {
    std::vector<SplitPiece> pieces;
    for (const TokenRange& r : reference_token_ranges(s_, limits))
      pieces.push_back({s_.dense ? "nvecs" : "tokens", r.begin, r.end});
    return pieces;
  }

  ComparePolicy compare_policy() const override {
    return {true, 0, 0,
            "one warp per output element with a fixed lane-to-block mapping and butterfly order; q8_1 one warp "
            "per block: bit-exact"};
  }

  void fill_inputs(std::uint64_t seed, const BufferSet& bufs, CUstream stream) const override {
    fill_gemv_call_inputs(s_, seed, bufs, stream);
  }

  void launch(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
              CUstream stream) const override {
    launch_quantize_q8_1(v_.quantize, bufs.as<float>("x"), bufs.as<int>("q8_1"), s_.activation_rows(), s_.cols, limits,
                         launcher, stream, v_.checked);
    if (v_.gemv == GemvGeometry::by_expert) {
      const device::DeviceBuffer& scratch = group_scratch();
      launch_gemv_by_expert(s_, args(bufs), scratch.get(), scratch.bytes(), limits, launcher, stream);
      return;
    }
    launch_gemv(v_.gemv, s_, args(bufs), limits, launcher, stream, v_.checked);
  }

  // Per token range: quantize its activation rows and run the 64-bit kernel (rows on x, pairs on
  // z) over its pairs, from buffer pointers advanced to the range: each piece is a small,
  // independent production-sized call.
  void launch_split_reference(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
                              CUstream stream) const override {
    const std::uint64_t pairs_per_token = s_.dense ? 1 : s_.top_k;
    const std::uint64_t act_rows_per_token = s_.proj == Projection::down ? s_.top_k : 1;
    for (const TokenRange& r : reference_token_ranges(s_, limits)) {
      MoeCallShape piece = s_;
      piece.tokens = r.end - r.begin;
      const std::uint64_t a0 = r.begin * act_rows_per_token, p0 = r.begin * pairs_per_token;
      float* x = bufs.as<float>("x") + a0 * s_.cols;
      int* q8 = bufs.as<int>("q8_1") + a0 * s_.token_stride();
      launch_quantize_q8_1(QuantizeGeometry::tiles_64, x, q8, piece.activation_rows(), s_.cols, limits, launcher,
                           stream, true);
      GemvArgs a = args(bufs);
      a.act = q8;
      if (a.ids != nullptr) a.ids += p0;
      a.dst = static_cast<char*>(a.dst) + p0 * s_.rows * s_.out_bytes_per_value();
      launch_gemv(GemvGeometry::zchunk, piece, a, limits, launcher, stream, true);
    }
  }

  std::vector<ReferenceSample> cpu_reference(const BufferSet& bufs, std::uint64_t seed,
                                             std::size_t count) const override {
    return gemv_call_cpu_reference(s_, bufs, seed, count);
  }
  // Buffers, inputs and the reference's pieces (tiles_64 quantize, zchunk GEMV) are the shape's.
  bool reference_same_for_every_variant() const override { return true; }

 private:
  GemvArgs args(const BufferSet& bufs) const {
    return gemv_args(s_, bufs.as<std::uint8_t>("weights"), bufs.as<int>("q8_1"), reinterpret_cast<void*>(bufs.ptr("dst")),
                     s_.dense ? nullptr : bufs.as<int>("expert_ids"));
  }

  // by_expert's scratch (expert_group_layout): allocated at the case's first call and kept for
  // the next ones (timed calls then allocate nothing; a cuMemFree would also synchronize). It is
  // the call's private workspace, small next to dst (16 bytes per expert and 4 or 8 per pair
  // against rows output values per pair), so it is not one of the compared buffers().
  const device::DeviceBuffer& group_scratch() const {
    const std::lock_guard lock(scratch_mutex_);
    if (!scratch_) scratch_.emplace(expert_group_layout(s_, gemv_index_width(s_)).bytes);
    return *scratch_;
  }

  MoeCallShape s_;
  VariantPlan v_;
  mutable std::mutex scratch_mutex_;
  mutable std::optional<device::DeviceBuffer> scratch_;
};

class GemvCallKernel final : public Kernel {
 public:
  explicit GemvCallKernel(bool dense) : dense_(dense) {}

  std::string name() const override { return dense_ ? "gguf.mmvq" : "gguf.moe_vec"; }
  std::string description() const override {
    return dense_ ? "GGUF dense GEMV (vLLM mmvq): q8_1 quantize + grid (rows, nvecs, 1); legacy refused at 65536 vectors"
                  : "GGUF MoE GEMV (vLLM moe_vec): q8_1 quantize + grid (rows, 1, tokens*top_k); legacy refused at "
                    "tokens*top_k > 65535, unchecked";
  }
  std::vector<std::string> variants() const override {
    if (dense_) return {"legacy", "fixed"};
    return {"legacy", "fixed", "zchunk", "rows_x", "pairs_x", "by_expert"};
  }
  std::vector<AxisSpec> axes() const override {
    std::vector<AxisSpec> a = gemv_shape_axes(dense_, "legacy", weight_type_names());
    a.push_back({"dtype", "output dtype", "f32", {"f32", "bf16"}, 0, 0});
    return a;
  }
  std::optional<std::string> check(const Params& p) const override {
    try {
      const std::string problem = moe_shape_problem(shape(p));
      if (!problem.empty()) return problem;
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::nullopt;
  }
  std::unique_ptr<BoundCase> bind(const Params& p, const std::string& variant) const override {
    return std::make_unique<GemvCallCase>(shape(p), variant_plan(name(), dense_, variant));
  }

 private:
  MoeCallShape shape(const Params& p) const { return dense_ ? mmvq_shape_from(p) : moe_shape_from(p); }

  bool dense_;
};

}  // namespace

std::shared_ptr<const Kernel> make_moe_vec_kernel() { return std::make_shared<GemvCallKernel>(false); }
std::shared_ptr<const Kernel> make_mmvq_kernel() { return std::make_shared<GemvCallKernel>(true); }

}  // namespace gridfuzz::gguf
