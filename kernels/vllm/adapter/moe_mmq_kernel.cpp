// vllm.moe_mmq: vLLM's MoE MMQ call (ggml_moe_a8, gguf_kernel.cu:292-394), the path vLLM takes for
// more than 64 tokens (quantization/fused_moe.py:56-59): upstream's quantize_q8_1, then
// moe_<type> (moe.cuh) over the routing that moe_align_block_size sorts by expert. Both kernels
// compiled unmodified (upstream_kernels.cu); the host lines reproduced in plan/moe_mmq_plan.cpp.
//   upstream: grid (rows / MOE_Y, sorted ids / MOE_X, 1), launches unchecked;
//   chunked:  the same kernels, grid.y chunked at the device limit (sorted and expert ids
//             advanced), launches checked.
// Buffers: the GGUF GEMV call's five (x, weights, expert_ids [tokens, top_k], q8_1, dst), then the
// aligned routing: sorted_token_ids, block_experts, num_tokens_post_padded. The routing is made
// on the host from the seed, with the highest expert always used (so an index that depends on it
// is formed), sorted as moe_align_block_size sorts it: each expert's pairs in pair order, padded to
// MOE_X with the sentinel `pairs`; unused blocks have expert -1, which the kernel skips.
// x and dst are of the `dtype` upstream dispatches on (activation_dtype.hpp, gguf_kernel.cu:306).
// Split reference: the chunked call in chunks of at most 4096 blocks: the same kernel, the same
// per-element arithmetic, bit-exact.
#include <map>
#include <mutex>
#include <random>
#include <stdexcept>
#include <tuple>

#include "../cuda/upstream_kernels.hpp"
#include "../cuda/activation_fill.hpp"
#include "../plan/moe_mmq_plan.hpp"
#include "activation_dtype.hpp"
#include "gemv_call_parts.hpp"
#include "gridfuzz/device/function.hpp"
#include "gridfuzz/gguf/formats.hpp"
#include "gridfuzz/vllm/register.hpp"
#include "random_fill.hpp"
#include "scalar_call_parts.hpp"
#include "upstream_launch.hpp"

namespace gridfuzz::vllm {
namespace {

using gguf::MoeCallShape;

constexpr std::uint64_t kReferenceBlocksPerLaunch = 4096;

const device::Function& mmq_function(gguf::QuantType t, ScalarKind k, bool need_check) {
  static std::mutex mutex;
  static std::map<std::tuple<gguf::QuantType, ScalarKind, bool>, device::Function> cache;
  const std::lock_guard lock(mutex);
  const auto key = std::make_tuple(t, k, need_check);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  const std::string name = "vllm moe_" + std::string(gguf::to_string(t)) + "<" + to_string(k) + "," +
                           (need_check ? "true" : "false") + ">";
  return cache.emplace(key, device::Function::from_symbol(moe_mmq_kernel(t, k, need_check), name)).first->second;
}

class MoeMmqCase final : public BoundCase {
 public:
  MoeMmqCase(const MoeCallShape& shape, ScalarKind dtype, MoeVecVariant variant) : s_(shape), k_(dtype), v_(variant) {}

  LaunchPlan plan(const DeviceLimits& limits) const override {
    const MoeMmqCall call = moe_mmq_call(v_, s_, upstream_constants(), limits.max_grid_y);
    LaunchPlan plan;
    for (const QuantizeLaunch& l : call.quantize) plan.launches.push_back(l.spec);
    for (const MoeMmqLaunch& l : call.mmq) plan.launches.push_back(l.spec);
    plan.indices = call.indices;
    plan.host_error = call.host_error;
    return plan;
  }

  std::vector<BufferSpec> buffers() const override {
    const MoeCallShape& s = s_;
    const AlignedRoutingSizes sizes = routing_sizes(s);
    std::vector<BufferSpec> b = scalar_call_buffers(s, k_);
    b.push_back({"sorted_token_ids", BufferRole::input, ElementType::i32, sizes.max_padded});
    b.push_back({"block_experts", BufferRole::input, ElementType::i32, sizes.blocks});
    b.push_back({"num_tokens_post_padded", BufferRole::input, ElementType::i32, 1});
    return b;
  }
  std::uint64_t bytes_moved() const override {
    const MoeCallShape& s = s_;
    return scalar_call_bytes_moved(s, k_) + routing_sizes(s).max_padded * 4;
  }
  std::vector<SplitPiece> split(const DeviceLimits& limits) const override {
    std::vector<SplitPiece> pieces;
    for (const MoeMmqLaunch& l : reference_call(s_, limits).mmq)
      pieces.push_back({"mmq blocks", l.expert_ids_offset, l.expert_ids_offset + l.spec.grid.y});
    return pieces;
  }
  ComparePolicy compare_policy() const override {
    return {true, 0, 0,
            "the split reference runs the same moe kernel in smaller grid.y chunks: every output element is summed "
            "by the same thread code in the same order: bit-exact"};
  }
  // Buffers, inputs and the reference (reference_call: chunked, in grid.y pieces) are the shape's.
  bool reference_same_for_every_variant() const override { return true; }

  void fill_inputs(std::uint64_t seed, const BufferSet& bufs, CUstream stream) const override {
    const MoeCallShape& s = s_;
    fill_activations(k_, bufs.ptr("x"), s.activation_rows() * s.cols, seed, stream);
    gguf::fill_weight_blocks(bufs.as<std::uint8_t>("weights"),
                             s.weight_bytes() / gguf::quant_traits(s.quant).block_bytes, s.quant, seed, stream);
    // The routing is made here, on the host, and written synchronously: no GPU fill touches these
    // buffers, so the writes need no ordering with the stream.
    std::mt19937_64 rng(seed ^ 0x3C6EF372FE94F82Bull);
    std::vector<int> ids(s.pairs());
    for (auto& id : ids) id = static_cast<int>(rng() % s.experts);
    ids.front() = static_cast<int>(s.experts - 1);  // the highest expert, and on the last pair too
    ids.back() = static_cast<int>(s.experts - 1);
    bufs.write(bufs.index_of("expert_ids"), 0, ids.data(), ids.size() * 4);
    write_aligned_routing(s, ids, bufs);
  }

  void launch(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
              CUstream stream) const override {
    issue(moe_mmq_call(v_, s_, upstream_constants(), limits.max_grid_y), s_, k_, bufs, launcher, stream,
          v_ == MoeVecVariant::chunked);
  }
  void launch_split_reference(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
                              CUstream stream) const override {
    issue(reference_call(s_, limits), s_, k_, bufs, launcher, stream, true);
  }

  std::vector<ReferenceSample> cpu_reference(const BufferSet& bufs, std::uint64_t seed,
                                             std::size_t count) const override {
    // Upstream's MMQ dot rounds q4_1/q5_1 scale products to fp16 (vecdotq.cuh:86, :153), and one
    // thread sums a whole row of blocks. A 16-bit dst adds its rounding.
    return scalar_call_cpu_reference(s_, k_, bufs, seed, count, {.fp16_scale_products = true, .serial_dot = true});
  }

 private:
  static AlignedRoutingSizes routing_sizes(const MoeCallShape& s) {
    return aligned_routing_sizes(s.pairs(), s.experts, static_cast<std::uint64_t>(moe_mmq_tile(s.quant).mmq_x));
  }
  static MoeMmqCall reference_call(const MoeCallShape& s, const DeviceLimits& limits) {
    return moe_mmq_call(MoeVecVariant::chunked, s, upstream_constants(),
                        std::min<std::uint64_t>(limits.max_grid_y, kReferenceBlocksPerLaunch));
  }

  // moe_align_block_size's output for `ids`: per expert, its pairs in pair order padded to the
  // block with the sentinel `pairs`; one expert per block; the padded total.
  static void write_aligned_routing(const MoeCallShape& s, const std::vector<int>& ids, const BufferSet& bufs) {
    const std::uint64_t block = static_cast<std::uint64_t>(moe_mmq_tile(s.quant).mmq_x);
    const AlignedRoutingSizes sizes = routing_sizes(s);
    std::vector<std::vector<int>> per_expert(s.experts);
    for (std::size_t pair = 0; pair < ids.size(); ++pair) per_expert[static_cast<std::size_t>(ids[pair])].push_back(static_cast<int>(pair));
    std::vector<int> sorted(sizes.max_padded, static_cast<int>(s.pairs()));
    std::vector<int> block_experts(sizes.blocks, -1);
    std::uint64_t at = 0;
    for (std::uint64_t e = 0; e < s.experts; ++e) {
      const auto& pairs = per_expert[e];
      if (pairs.empty()) continue;
      for (std::size_t k = 0; k < pairs.size(); ++k) sorted[at + k] = pairs[k];
      const std::uint64_t padded = (pairs.size() + block - 1) / block * block;
      for (std::uint64_t b = at / block; b < (at + padded) / block; ++b) block_experts[b] = static_cast<int>(e);
      at += padded;
    }
    if (at > sizes.max_padded) throw std::logic_error("vllm.moe_mmq: aligned routing overflows its buffer");
    const int post_padded = static_cast<int>(at);
    bufs.write(bufs.index_of("sorted_token_ids"), 0, sorted.data(), sorted.size() * 4);
    bufs.write(bufs.index_of("block_experts"), 0, block_experts.data(), block_experts.size() * 4);
    bufs.write(bufs.index_of("num_tokens_post_padded"), 0, &post_padded, 4);
  }

  static void issue(const MoeMmqCall& call, const MoeCallShape& s, ScalarKind k, const BufferSet& bufs,
                    device::Launcher& launcher, CUstream stream, bool checked) {
    int* q8 = bufs.as<int>("q8_1");
    issue_quantize(call.quantize, k, bufs.as<void>("x"), q8, launcher, stream, checked);
    const void* vx = bufs.as<std::uint8_t>("weights");
    const void* vy = q8;
    void* dst = bufs.as<void>("dst");
    const int* ntpp = bufs.as<int>("num_tokens_post_padded");
    for (const MoeMmqLaunch& l : call.mmq) {
      const int* sorted = bufs.as<int>("sorted_token_ids") + l.sorted_offset;
      const int* experts = bufs.as<int>("block_experts") + l.expert_ids_offset;
      int exp_stride = l.exp_stride, ncols_x = l.ncols_x, nrows_x = l.nrows_x, ncols_y = l.ncols_y, nrows_y = l.nrows_y,
          nrows_dst = l.nrows_dst, top_k = l.top_k;
      void* args[] = {&vx,      &vy,      &dst,     &sorted,  &experts,   &ntpp,  &exp_stride,
                      &ncols_x, &nrows_x, &ncols_y, &nrows_y, &nrows_dst, &top_k};
      launch_upstream(launcher, mmq_function(s.quant, k, l.need_check), l.spec, args, stream, checked);
    }
  }

  MoeCallShape s_;
  ScalarKind k_;
  MoeVecVariant v_;
};

class MoeMmqKernel final : public Kernel {
 public:
  std::string name() const override { return "vllm.moe_mmq"; }
  std::string description() const override {
    return "vLLM's GGUF MoE MMQ (vllm-gguf-plugin 0.0.5, unmodified; vLLM's path above 64 tokens): q8_1 quantize + "
           "moe_<type> on grid (rows/MOE_Y, sorted ids/MOE_X, 1); upstream unchecked, chunked = grid.y chunked";
  }
  std::vector<std::string> variants() const override { return {"upstream", "chunked"}; }
  std::vector<AxisSpec> axes() const override {
    std::vector<std::string> types;
    for (gguf::QuantType t : moe_mmq_quant_types()) types.emplace_back(gguf::to_string(t));
    return {
        {"tokens", "tokens in the batch (vLLM uses this path above 64)", "256", {}, 1, 1ll << 20},
        {"top_k", "experts per token", "8", {}, 1, 64},
        {"experts", "experts in the weight bank", "128", {}, 1, 4096},
        {"proj", "gate_up: top_k over tokens; down: top_k 1 over tokens*top_k activation rows", "gate_up",
         {"gate_up", "down"}, 0, 0},
        {"rows", "output rows per pair (gemma-4 gate/up: 1408)", "1408", {}, 1, 1 << 20},
        {"cols", "reduction length, a multiple of the type's block size (gemma-4 hidden: 2816)", "2816", {}, 32,
         1 << 20, 32},
        {"quant", "weight quant type (those with an MMQ kernel upstream)", "q4_0", types, 0, 0},
        dtype_axis(),
    };
  }
  std::optional<std::string> check(const Params& p) const override {
    return gemv_shape_check([&] {
      scalar_kind_from(p);
      return shape(p);
    });
  }

  std::unique_ptr<BoundCase> bind(const Params& p, const std::string& variant) const override {
    return std::make_unique<MoeMmqCase>(shape(p), scalar_kind_from(p), parse_moe_vec_variant(variant));
  }

 private:
  // The GGUF call shape with its own dtype f32: the case keeps the activation dtype beside it.
  static MoeCallShape shape(const Params& p) { return gguf::moe_shape_from(with_f32_shape_dtype(p)); }
};

}  // namespace

std::shared_ptr<const Kernel> make_moe_mmq_kernel() { return std::make_shared<MoeMmqKernel>(); }

}  // namespace gridfuzz::vllm
