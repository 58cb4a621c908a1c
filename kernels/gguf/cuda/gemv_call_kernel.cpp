// gguf.moe_vec and gguf.mmvq: one production call = quantize the activation rows to q8_1, then
// the GEMV (one warp per output element). The two share everything but the expert indirection,
// so one adapter class serves both (dense = mmvq).
//
// Buffers (in this order): x (f32 activations, input), weights (u8 blocks, input), ids (int32
// [tokens, top_k], input; moe_vec only), q8_1 (int32 words [activation rows, padded/32*9]),
// dst ([pairs, rows] f32 or bf16).
// Decision: the q8_1 buffer is the call's scratch but is declared an OUTPUT. The harness then
// poisons it (a quantize launch that never ran leaves poison: `unwritten`), compares it bit for bit
// with the split reference's own q8_1, and guards it; the CPU reference also checks sampled words
// of it against the CPU quantizer. The data fill makes a poison collision impossible
// (random_fill.hpp). The moe_vec/mmvq result is dst.
#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <cstring>
#include <stdexcept>

#include "call_shape.hpp"
#include "gemv_launch.hpp"
#include "gridfuzz/checked_math.hpp"
#include "gridfuzz/gguf/blocks.hpp"
#include "gridfuzz/gguf/quant_type_names.hpp"
#include "gridfuzz/gguf/quantize_q8_1.hpp"
#include "gridfuzz/gguf/reference_dot.hpp"
#include "gridfuzz/gguf/register.hpp"
#include "launch_geometry.hpp"
#include "quantize_q8_1_launch.hpp"
#include "random_fill.hpp"

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
    return {"legacy", "fixed", "zchunk", "rows_x", "pairs_x"};
  }
  std::vector<AxisSpec> axes() const override {
    std::vector<AxisSpec> a;
    if (dense_) {
      a.push_back({"nvecs", "activation vectors (grid.y of the legacy launch)", "8", {}, 1, 1ll << 26});
    } else {
      a.push_back({"tokens", "tokens in the batch", "64", {}, 1, 1ll << 26});
      a.push_back({"top_k", "experts per token", "8", {}, 1, 64});
      a.push_back({"experts", "experts in the weight bank", "128", {}, 1, 4096});
      a.push_back({"proj", "gate_up: top_k over tokens; down: top_k 1 over tokens*top_k activation rows", "gate_up",
                   {"gate_up", "down"}, 0, 0});
    }
    a.push_back({"rows", "output rows per pair (gemma-4 gate/up: 1408)", "1408", {}, 1, 1 << 20});
    a.push_back({"cols", "reduction length, a multiple of the type's block size (gemma-4 hidden: 2816)", "2816", {}, 32,
                 1 << 20, 32});
    a.push_back({"quant", "weight quant type", "q4_0", weight_type_names(), 0, 0});
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

  LaunchPlan plan(const Params& p, const std::string& variant, const DeviceLimits& limits) const override {
    const MoeCallShape s = shape(p);
    const VariantPlan v = variant_plan(variant);
    LaunchPlan plan;
    for (const auto& l : quantize_launches(v.quantize, s.activation_rows(), s.cols, limits)) plan.launches.push_back(l.spec);
    for (const auto& l : gemv_launches(v.gemv, s, limits)) plan.launches.push_back(l.spec);
    plan.indices = quantize_indices(v.quantize, s.activation_rows(), s.cols, limits);
    for (auto& r : gemv_indices(v.gemv, s)) plan.indices.push_back(r);
    return plan;
  }

  std::vector<BufferSpec> buffers(const Params& p) const override {
    const MoeCallShape s = shape(p);
    std::vector<BufferSpec> b;
    b.push_back({"x", BufferRole::input, ElementType::f32, s.activation_rows() * s.cols});
    b.push_back({"weights", BufferRole::input, ElementType::u8, s.weight_bytes()});
    if (!dense_) b.push_back({"expert_ids", BufferRole::input, ElementType::i32, s.pairs()});
    b.push_back({"q8_1", BufferRole::output, ElementType::i32, s.q8_1_words()});
    b.push_back({"dst", BufferRole::output, s.dtype == OutDtype::f32 ? ElementType::f32 : ElementType::bf16,
                 s.pairs() * s.rows});
    return b;
  }

  // Compulsory traffic of one call: activations read, q8_1 written and read, ids, the weights
  // of the experts that can be hit (min(experts, pairs) of them), the output written.
  std::uint64_t bytes_moved(const Params& p) const override {
    const MoeCallShape s = shape(p);
    const std::uint64_t experts_hit = dense_ ? 1 : std::min(s.experts, s.pairs());
    return s.activation_rows() * s.cols * 4 + 2 * s.q8_1_words() * 4 + (dense_ ? 0 : s.pairs() * 4) +
           experts_hit * s.rows * s.weight_row_bytes() + s.pairs() * s.rows * s.out_bytes_per_value();
  }

  std::vector<SplitPiece> split(const Params& p, const DeviceLimits& limits) const override {
    std::vector<SplitPiece> pieces;
    for (const TokenRange& r : reference_token_ranges(shape(p), limits))
      pieces.push_back({dense_ ? "nvecs" : "tokens", r.begin, r.end});
    return pieces;
  }

  ComparePolicy compare_policy(const Params&, const std::string&) const override {
    return {true, 0, 0,
            "one warp per output element with a fixed lane-to-block mapping and butterfly order; q8_1 one warp "
            "per block: bit-exact"};
  }

  void fill_inputs(const Params& p, std::uint64_t seed, const BufferSet& bufs, CUstream stream) const override {
    const MoeCallShape s = shape(p);
    fill_activations(bufs.as<float>(kX), s.activation_rows() * s.cols, seed, stream);
    fill_weight_blocks(bufs.as<std::uint8_t>(kWeights), s.weight_bytes() / quant_traits(s.quant).block_bytes, s.quant,
                       seed, stream);
    if (!dense_) fill_expert_ids(bufs.as<int>(kIds), s.pairs(), s.experts, seed, stream);
  }

  void launch(const Params& p, const std::string& variant, const DeviceLimits& limits, const BufferSet& bufs,
              device::Launcher& launcher, CUstream stream) const override {
    const MoeCallShape s = shape(p);
    const VariantPlan v = variant_plan(variant);
    launch_quantize_q8_1(v.quantize, bufs.as<float>(kX), bufs.as<int>(q8_index()), s.activation_rows(), s.cols, limits,
                         launcher, stream, v.checked);
    launch_gemv(v.gemv, s, args(s, bufs), limits, launcher, stream, v.checked);
  }

  // Per token range: quantize its activation rows and run the 64-bit kernel (rows on x, pairs on
  // z) over its pairs, from buffer pointers advanced to the range: each piece is a small,
  // independent production-sized call.
  void launch_split_reference(const Params& p, const DeviceLimits& limits, const BufferSet& bufs,
                              device::Launcher& launcher, CUstream stream) const override {
    const MoeCallShape s = shape(p);
    const std::uint64_t pairs_per_token = dense_ ? 1 : s.top_k;
    const std::uint64_t act_rows_per_token = s.proj == Projection::down ? s.top_k : 1;
    for (const TokenRange& r : reference_token_ranges(s, limits)) {
      MoeCallShape piece = s;
      piece.tokens = r.end - r.begin;
      const std::uint64_t a0 = r.begin * act_rows_per_token, p0 = r.begin * pairs_per_token;
      float* x = bufs.as<float>(kX) + a0 * s.cols;
      int* q8 = bufs.as<int>(q8_index()) + a0 * s.token_stride();
      launch_quantize_q8_1(QuantizeGeometry::tiles_64, x, q8, piece.activation_rows(), s.cols, limits, launcher, stream,
                           true);
      GemvArgs a = args(s, bufs);
      a.act = q8;
      if (a.ids != nullptr) a.ids += p0;
      a.dst = static_cast<char*>(a.dst) + p0 * s.rows * s.out_bytes_per_value();
      launch_gemv(GemvGeometry::zchunk, piece, a, limits, launcher, stream, true);
    }
  }

  std::vector<ReferenceSample> cpu_reference(const Params& p, const BufferSet& bufs, std::uint64_t seed,
                                             std::size_t count) const override {
    const MoeCallShape s = shape(p);
    const std::uint64_t pairs = s.pairs();
    const std::uint64_t row_bytes = s.weight_row_bytes();
    const std::uint64_t q8_blocks = q8_1_blocks_per_row(s.cols);
    std::mt19937_64 rng(seed ^ 0x6A09E667F3BCC909ull);
    std::map<std::uint64_t, std::vector<block_q8_1>> act_rows;  // activation row -> CPU q8_1
    auto quantized_row = [&](std::uint64_t a) -> const std::vector<block_q8_1>& {
      auto it = act_rows.find(a);
      if (it != act_rows.end()) return it->second;
      std::vector<float> x(s.cols);
      bufs.read(kX, a * s.cols * 4, x.data(), s.cols * 4);
      std::vector<block_q8_1> q(q8_blocks);
      quantize_row_q8_1(x.data(), s.cols, q.data());
      return act_rows.emplace(a, std::move(q)).first->second;
    };
    std::vector<ReferenceSample> out;
    std::vector<std::uint8_t> w(row_bytes);
    for (std::size_t k = 0; k < count; ++k) {
      // Half the samples in the last 64 pairs, where a geometry bug shows first.
      const std::uint64_t tail = std::min<std::uint64_t>(pairs, 64);
      const std::uint64_t pair = k % 2 ? pairs - 1 - rng() % tail : rng() % pairs;
      const std::uint64_t row = k % 4 == 1 ? s.rows - 1 : rng() % s.rows;
      std::uint64_t expert = 0;
      if (!dense_) {
        int id = 0;
        bufs.read(kIds, pair * 4, &id, 4);
        if (id < 0 || static_cast<std::uint64_t>(id) >= s.experts) throw std::runtime_error("expert id out of range");
        expert = static_cast<std::uint64_t>(id);
      }
      const std::uint64_t act_row = s.proj == Projection::down || dense_ ? pair : pair / s.top_k;
      const auto& q = quantized_row(act_row);
      bufs.read(kWeights, (expert * s.rows + row) * row_bytes, w.data(), row_bytes);
      const double expected = reference_dot_via_q8_1_sums(s.quant, w.data(), q.data(), s.cols);
      double tol = gpu_dot_tolerance_via_q8_1_sums(s.quant, w.data(), q.data(), s.cols);
      if (s.dtype == OutDtype::bf16) tol += std::ldexp(std::fabs(expected) + tol, -8);  // bf16 rounding: <= 2^-9 relative
      out.push_back({dst_index(), pair * s.rows + row, expected, 0, tol});
      // Every 8th sample also checks one word of that activation row's q8_1 bit for bit.
      if (k % 8 == 0) {
        const std::uint64_t word = rng() % s.token_stride();
        std::int32_t expected_word = 0;
        std::memcpy(&expected_word, reinterpret_cast<const std::uint8_t*>(q.data()) + word * 4, 4);
        out.push_back({q8_index(), act_row * s.token_stride() + word, static_cast<double>(expected_word), 0, 0});
      }
    }
    return out;
  }

 private:
  static constexpr std::size_t kX = 0, kWeights = 1, kIds = 2;
  std::size_t q8_index() const { return dense_ ? 2 : 3; }
  std::size_t dst_index() const { return dense_ ? 3 : 4; }

  MoeCallShape shape(const Params& p) const { return dense_ ? mmvq_shape_from(p) : moe_shape_from(p); }

  GemvArgs args(const MoeCallShape& s, const BufferSet& bufs) const {
    return gemv_args(s, bufs.as<std::uint8_t>(kWeights), bufs.as<int>(q8_index()),
                     reinterpret_cast<void*>(bufs.ptr(dst_index())), dense_ ? nullptr : bufs.as<int>(kIds));
  }

  VariantPlan variant_plan(const std::string& variant) const {
    // legacy: vLLM's tiled quantizer (int offsets) and the upstream grid, launches unchecked.
    if (variant == "legacy") return {QuantizeGeometry::upstream_tiles, GemvGeometry::legacy, false};
    if (variant == "fixed") return {QuantizeGeometry::tiles_64, dense_ ? GemvGeometry::rows_x : kMoeFixedGeometry, true};
    if (!dense_ && variant == "zchunk") return {QuantizeGeometry::tiles_64, GemvGeometry::zchunk, true};
    if (!dense_ && variant == "rows_x") return {QuantizeGeometry::tiles_64, GemvGeometry::rows_x, true};
    if (!dense_ && variant == "pairs_x") return {QuantizeGeometry::tiles_64, GemvGeometry::pairs_x, true};
    throw std::invalid_argument(name() + ": unknown variant '" + variant + "'");
  }

  // The fixed moe_vec layout (rows_x for few pairs, pairs_x for many); see launch_geometry.hpp and
  // docs/PERFORMANCE.md "GGUF MoE GEMV" for the measurement behind it.
  static constexpr GemvGeometry kMoeFixedGeometry = GemvGeometry::fixed;

  bool dense_;
};

}  // namespace

std::shared_ptr<const Kernel> make_moe_vec_kernel() { return std::make_shared<GemvCallKernel>(false); }
std::shared_ptr<const Kernel> make_mmvq_kernel() { return std::make_shared<GemvCallKernel>(true); }

}  // namespace gridfuzz::gguf
