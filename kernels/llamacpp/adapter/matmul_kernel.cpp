// llamacpp.mmvq / llamacpp.mmq: one call of llama.cpp's host entry point
// (ggml_cuda_mul_mat_vec_q, mmvq.cu:1421; ggml_cuda_mul_mat_q, mmq.cu:135) on ggml tensors over
// gridfuzz's buffers (cuda/upstream_call.cu). Upstream's host code quantizes the activations into
// its own pool, chooses the kernels and their geometry and launches them itself; gridfuzz watches
// those launches (Kernel::launch_owner: the runner records them with CUPTI) and compares them with the plan
// (plan/, every formula cited): a difference is a model-mismatch. The host code is upstream's,
// unmodified, in both variants; they differ in how the memory it touches is allocated
// (docs/upstream/llama-cpp.md, "Allocation"; plan/ggml_alloc_rules.hpp cites each rule):
//   - `upstream`: as llama.cpp allocates it. The weights occupy ggml's CUDA alloc size (the last
//     row padded to a multiple of 512 values, the padding zeroed as ggml's init_tensor does) padded
//     to the buffer's 128-byte alignment, the activations and ids their nbytes padded to 128; the
//     q8_1 scratch and the ids helpers come from the pool ggml picks on this device (VMM where
//     supported: 128-byte steps in whole mapped granules; else the legacy pool's 1.05x). A fresh
//     pool per call: llama.cpp's own pool in a fresh process, its least slack.
//   - `exact`: exactly the bytes upstream asks for, every buffer and every pool request (what
//     gridfuzz did before; exposes over-reads that llama.cpp's slack hides).
// The slack lies inside the buffer, before the harness's guard zone: a read into it is in bounds
// as in llama.cpp, and a write past it still changes the guard. Outputs (dst) are never padded:
// ggml's 128-byte alignment gap after a tensor belongs to no tensor, so a write there stays a
// guard violation in both variants, and the whole of dst stays checked for unwritten values.
//
// Axis `op`: mul_mat (one weight matrix; tokens = the activation vectors) or mul_mat_id (the MoE
// path: a bank of `experts` matrices, `top_k` of them per token by expert ids, gate_up reading one
// activation row per token, down one per (token, slot)).
// Buffers, inputs and the float64 CPU reference are the GGUF family's (kernels/gguf/adapter/
// gemv_call_parts), through an index view: llama.cpp has no q8_1 buffer of ours (its q8_1 scratch
// is its pool's), so the buffers are x, weights, [ids,] dst.
#include "matmul_kernel.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "gemv_call_parts.hpp"
#include "random_fill.hpp"
#include "routing_ids.hpp"
#include "gridfuzz/device/launch_recorder.hpp"
#include "gridfuzz/gguf/formats.hpp"
#include "plan/ggml_alloc_rules.hpp"
#include "plan/pool_requests.hpp"
#include "plan/upstream_call_plan.hpp"

namespace gridfuzz::llamacpp {
namespace {

using gguf::GemvBuffers;
using gguf::MoeCallShape;

// Not a power of two: with 4096-token pieces the q8_1 scratch of a DeepSeek-V3 gate/up piece is
// exactly 252 MiB and upstream's unpadded tile read past its end faulted on the H200
// (docs/upstream/llama-cpp.md, Finding 3); 4000 tokens keep the pieces off such boundaries.
constexpr std::uint64_t kMmqPieceTokens = 4000;
constexpr double kMmqSplitRelTol = 1e-4, kMmqSplitAbsTol = 1e-3;

// Our buffer indices: x, weights, ids (mul_mat_id only), dst.
std::size_t dst_index(const MoeCallShape& s) { return s.dense ? 2 : 3; }

// The GGUF family's buffer indices over ours (its q8_1 buffer does not exist here).
class GgufView final : public BufferSet {
 public:
  GgufView(const MoeCallShape& s, const BufferSet& bufs) : s_(s), bufs_(bufs) {}
  CUdeviceptr ptr(std::size_t i) const override { return bufs_.ptr(map(i)); }
  std::uint64_t bytes(std::size_t i) const override { return bufs_.bytes(map(i)); }
  void read(std::size_t i, std::uint64_t offset, void* host, std::uint64_t n) const override {
    bufs_.read(map(i), offset, host, n);
  }
  void write(std::size_t i, std::uint64_t offset, const void* host, std::uint64_t n) const override {
    bufs_.write(map(i), offset, host, n);
  }
  // Names and indices here are the GGUF family's layout (gemv_call_buffers).
  std::size_t index_of(std::string_view name) const override { return buffer_index(gguf::gemv_call_buffers(s_), name); }
  std::size_t map(std::size_t i) const {
    if (i == GemvBuffers::x || i == GemvBuffers::weights) return i;
    if (!s_.dense && i == GemvBuffers::ids) return 2;
    if (i == GemvBuffers::dst(s_)) return dst_index(s_);
    throw std::logic_error("llamacpp: the GGUF family's q8_1 buffer has no counterpart here");
  }

 private:
  MoeCallShape s_;
  const BufferSet& bufs_;
};

// Elements of `type_bytes` each that hold `bytes` rounded up to whole elements.
std::uint64_t elements_for(std::uint64_t bytes, std::uint64_t type_bytes) { return (bytes + type_bytes - 1) / type_bytes; }

// The bytes a tensor of `nbytes` occupies in llama.cpp's CUDA buffer (ggml_alloc_rules.hpp);
// throws where that passes 2^64 (no device holds it anyway).
std::uint64_t ggml_footprint(std::uint64_t nbytes, std::uint64_t ne0, std::uint64_t block_elems,
                             std::uint64_t block_bytes) {
  const auto alloc = cuda_tensor_alloc_size(nbytes, ne0, block_elems, block_bytes);
  const auto footprint = alloc ? cuda_buffer_footprint(*alloc) : std::nullopt;
  if (!footprint) throw std::overflow_error("llamacpp: a tensor of " + std::to_string(nbytes) + " bytes padded past 2^64");
  return *footprint;
}

class MatmulCase final : public BoundCase {
 public:
  MatmulCase(Entry entry, const MoeCallShape& shape, bool uniform_routing, bool upstream_alloc)
      : entry_(entry), s_(shape), uniform_routing_(uniform_routing), upstream_alloc_(upstream_alloc) {}

  LaunchPlan plan(const DeviceLimits& limits) const override {
    const UpstreamCallPlan u = call_plan(s_, limits);
    LaunchPlan plan;
    plan.launches = u.launches;
    plan.host_error = u.host_error;
    plan.indices = u.indices;
    // ggml's VMM pool (the one `upstream` takes on Hopper and every VMM device) maps at most 32 GiB
    // and asserts past it (ggml_alloc_rules.hpp): the call ends at the request that passes it (with
    // ids, after mm_ids_helper; without, before any launch), and like every predicted host error
    // the case is not run.
    if (upstream_alloc_ && !plan.host_error) {
      const std::vector<std::uint64_t> req =
          pool_requests(entry_ == Entry::mmvq ? PoolCall::mmvq : PoolCall::mmq, s_);
      const auto used = vmm_pool_used(req.data(), req.size());
      if (!used || *used > kVmmPoolMaxSize) {
        plan.launches.clear();
        plan.host_error = std::string(kVmmPoolMaxAssertion) + ": the call's pool requests total " +
                          (used ? std::to_string(*used) : std::string("more than 2^64")) + " bytes";
      }
    }
    return plan;
  }

  std::vector<BufferSpec> buffers() const override {
    const MoeCallShape& s = s_;
    std::vector<BufferSpec> b;
    b.push_back({"x", BufferRole::input, ElementType::f32, s.activation_rows() * s.cols});
    b.push_back({"weights", BufferRole::input, ElementType::u8, s.weight_bytes()});
    if (!s.dense) b.push_back({"expert_ids", BufferRole::input, ElementType::i32, s.pairs()});
    b.push_back({"dst", BufferRole::output, ElementType::f32, s.pairs() * s.rows});
    if (upstream_alloc_) {
      // Inputs as ggml's CUDA buffer holds them (the class comment); dst as asked.
      const gguf::QuantTraits t = gguf::quant_traits(s.quant);
      b[0].elements = elements_for(ggml_footprint(b[0].bytes(), s.cols, 1, 4), 4);
      b[1].elements = ggml_footprint(b[1].bytes(), s.cols, t.qk, t.block_bytes);
      if (!s.dense) b[2].elements = elements_for(ggml_footprint(b[2].bytes(), s.top_k, 1, 4), 4);
    }
    return b;
  }
  std::uint64_t bytes_moved() const override {
    const MoeCallShape& s = s_;
    const std::uint64_t experts_hit = s.dense ? 1 : std::min(s.experts, s.pairs());
    return s.activation_rows() * s.cols * 4 + (s.dense ? 0 : s.pairs() * 4) +
           experts_hit * s.rows * s.weight_row_bytes() + s.pairs() * s.rows * 4;
  }
  std::vector<SplitPiece> split(const DeviceLimits& limits) const override {
    std::vector<SplitPiece> out;
    for (const auto& [b, e] : pieces(s_, limits)) out.push_back({"tokens", b, e});
    return out;
  }
  ComparePolicy compare_policy() const override {
    if (entry_ == Entry::mmvq)
      return {true, 0, 0,
              "the split reference calls upstream again over token pieces that keep the same kernel and the same "
              "per-token reduction order (mul_mat_vec_q_moe: one warp row per token): bit-exact"};
    return {false, kMmqSplitRelTol, kMmqSplitAbsTol,
            "stream-k splits the K loop of a tile over CUDA blocks by the number of tiles, which differs per token "
            "piece, and the fixup adds the partial sums in another order: fp32 reassociation of about cols/256 "
            "partial sums, bounded here by 1e-4 relative + 1e-3 absolute"};
  }

  // The GGUF family's activations and weights; expert ids as a router makes them (routing_ids.hpp).
  void fill_inputs(std::uint64_t seed, const BufferSet& bufs, CUstream stream) const override {
    const MoeCallShape& s = s_;
    gguf::fill_activations(bufs.as<float>("x"), s.activation_rows() * s.cols, seed, stream);
    gguf::fill_weight_blocks(bufs.as<std::uint8_t>("weights"),
                             s.weight_bytes() / gguf::quant_traits(s.quant).block_bytes, s.quant, seed, stream);
    // ggml_backend_cuda_buffer_init_tensor (ggml-cuda.cu:758-766) zeroes a quantized tensor's
    // padding, its alloc size past ggml_nbytes; the 128-byte alignment gap after it is no tensor's
    // and keeps whatever is there (here the guard pattern).
    if (upstream_alloc_) {
      const gguf::QuantTraits t = gguf::quant_traits(s.quant);
      const auto alloc = cuda_tensor_alloc_size(s.weight_bytes(), s.cols, t.qk, t.block_bytes);
      if (alloc && *alloc > s.weight_bytes()) {
        const std::vector<std::uint8_t> zeros(*alloc - s.weight_bytes(), 0);
        bufs.write(bufs.index_of("weights"), s.weight_bytes(), zeros.data(), zeros.size());
      }
    }
    if (s.dense) return;
    if (uniform_routing_) {
      gguf::fill_expert_ids(bufs.as<int>("expert_ids"), s.pairs(), s.experts, seed, stream);
      return;
    }
    const std::vector<std::int32_t> ids = routing_ids(s.tokens, s.top_k, s.experts, seed);
    bufs.write(bufs.index_of("expert_ids"), 0, ids.data(), ids.size() * sizeof(std::int32_t));
  }

  // Upstream's host code launches (Kernel::launch_owner): the runner records its launches.
  void launch(const DeviceLimits&, const BufferSet& bufs, device::Launcher&, CUstream stream) const override {
    call_upstream(entry_, call_of(s_, bufs, 0, s_.tokens, pool()), stream);
  }

  // Recorded too, so that a refused reference launch shows in the reference's records.
  void launch_split_reference(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
                              CUstream stream) const override {
    const MoeCallShape& s = s_;
    for (const auto& [b, e] : pieces(s, limits))
      device::watch_launches(launcher, [&] { call_upstream(entry_, call_of(s, bufs, b, e, pool()), stream); });
  }

  std::vector<ReferenceSample> cpu_reference(const BufferSet& bufs, std::uint64_t seed,
                                             std::size_t count) const override {
    const MoeCallShape& s = s_;
    gguf::GemvReferenceOptions options;
    options.check_q8_1_words = false;
    options.serial_dot = entry_ == Entry::mmq;
    // MMQ keeps the activation scale of these types in fp32 (MMQ_Q8_1_DS_LAYOUT_D4,
    // mmq.cuh:60-100), where the reference's q8_1 block rounds it to fp16.
    options.fp32_activation_scale = entry_ == Entry::mmq && mmq_activation_scale_is_fp32(s.quant);
    // mmvq's activations come from quantize_q8_1 (quantize.cu:91-92), built with upstream's
    // -use_fast_math: its d = amax/127 and x/d are approximate divisions (div.approx.ftz.f32, 2 ulp),
    // so an element whose x/d lies within 2^-20 of roundf's tie point may round the other way than
    // on the CPU: one quant step, d8 * |w| in the dot, more than the fp32 bound of the symmetric
    // types (q8_0, q6_K, iq4_xs) allows. The tolerance allows exactly those steps
    // (fast_division_q8_1_error_bound; docs/upstream/llama-cpp.md, Finding 6). MMQ quantizes with
    // 127/amax and a multiply instead (quantize.cu:515-521), covered by the bounds above.
    options.fast_math_quantizer = entry_ == Entry::mmvq;
    std::vector<ReferenceSample> samples = gguf::gemv_call_cpu_reference(s, GgufView(s, bufs), seed, count, options);
    for (ReferenceSample& r : samples) r.buffer = bufs.index_of("dst");
    return samples;
  }

 private:
  UpstreamCallPlan call_plan(const MoeCallShape& s, const DeviceLimits& limits) const {
    return entry_ == Entry::mmvq ? mmvq_plan(s, limits) : mmq_plan(s, limits);
  }

  // Token pieces of the split reference. mmvq: mul_mat_vec_q_moe pieces of 2 tokens (the last 2 or
  // 3) when the call runs it with 4 tokens or more; otherwise the whole call once more. mmq: pieces
  // of kMmqPieceTokens tokens, far from every limit of mmq_plan.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> pieces(const MoeCallShape& s, const DeviceLimits&) const {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
    if (entry_ == Entry::mmq) {
      for (std::uint64_t b = 0; b < s.tokens; b += kMmqPieceTokens)
        out.emplace_back(b, std::min(s.tokens, b + kMmqPieceTokens));
      return out;
    }
    if (s.dense || s.tokens < 4) {
      out.emplace_back(0, s.tokens);
      return out;
    }
    for (std::uint64_t b = 0; b < s.tokens;) {
      const std::uint64_t e = s.tokens - b <= 3 ? s.tokens : b + 2;
      out.emplace_back(b, e);
      b = e;
    }
    return out;
  }

  Pool pool() const { return upstream_alloc_ ? Pool::ggml_default : Pool::exact; }

  // The call over tokens [b, e) of the whole shape's buffers.
  static MatmulCall call_of(const MoeCallShape& s, const BufferSet& bufs, std::uint64_t b, std::uint64_t e,
                            Pool pool) {
    MatmulCall c;
    c.pool = pool;
    c.ggml_type = static_cast<std::uint32_t>(s.quant);
    c.cols = static_cast<std::int64_t>(s.cols);
    c.rows = static_cast<std::int64_t>(s.rows);
    c.experts = static_cast<std::int64_t>(s.experts);
    c.with_ids = !s.dense;
    const std::uint64_t act_rows_per_token = s.proj == gguf::Projection::down ? s.top_k : 1;
    c.vectors = static_cast<std::int64_t>(e - b);
    c.tokens = static_cast<std::int64_t>(e - b);
    c.top_k = static_cast<std::int64_t>(s.top_k);
    c.src1_rows_per_token = static_cast<std::int64_t>(act_rows_per_token);
    c.weights = bufs.as<std::uint8_t>("weights");
    c.x = bufs.as<float>("x") + b * act_rows_per_token * s.cols;
    if (!s.dense) c.ids = bufs.as<std::int32_t>("expert_ids") + b * s.top_k;
    c.dst = bufs.as<float>("dst") + b * s.top_k * s.rows;
    return c;
  }

  Entry entry_;
  MoeCallShape s_;
  bool uniform_routing_;
  bool upstream_alloc_;
};

class MatmulKernel final : public Kernel {
 public:
  explicit MatmulKernel(Entry entry) : entry_(entry) {}

  std::string name() const override { return entry_ == Entry::mmvq ? "llamacpp.mmvq" : "llamacpp.mmq"; }
  std::string description() const override {
    return entry_ == Entry::mmvq
               ? "llama.cpp's ggml_cuda_mul_mat_vec_q (llama-cpp-python 0.3.36, unmodified host code and kernels): "
                 "q8_1 quantize + mul_mat_vec_q / mul_mat_vec_q_moe, launches recorded with CUPTI"
               : "llama.cpp's ggml_cuda_mul_mat_q (llama-cpp-python 0.3.36, unmodified host code and kernels): "
                 "q8_1 quantize, expert-id gather, MMQ (stream-k on Hopper) + fixup, launches recorded with CUPTI";
  }
  // Both run upstream's host code and kernels unmodified; they differ in allocation (the file's
  // first comment; docs/DECISIONS.md, "Allocation as upstream does it: a variant").
  std::vector<std::string> variants() const override { return {"upstream", "exact"}; }
  LaunchOwner launch_owner() const override { return LaunchOwner::own_host_code; }
  std::vector<AxisSpec> axes() const override {
    std::vector<std::string> types;
    for (gguf::QuantType t : llamacpp_quant_types()) types.emplace_back(gguf::to_string(t));
    const bool vec = entry_ == Entry::mmvq;
    return {
        {"op", "mul_mat (one matrix) or mul_mat_id (MoE: expert ids pick top_k of `experts` matrices per token)",
         "mul_mat_id", {"mul_mat", "mul_mat_id"}, 0, 0},
        {"tokens", "tokens of the ubatch (mul_mat: activation vectors)", vec ? "4" : "512", {}, 1, 1ll << 24},
        {"top_k", "experts per token (mul_mat_id; DeepSeek-V3: 8)", "8", {}, 1, 64},
        {"experts", "experts in the weight bank (mul_mat_id; DeepSeek-V3: 256)", "256", {}, 1, 4096},
        {"proj", "mul_mat_id: gate_up (one activation row per token) or down (one per token and slot)", "gate_up",
         {"gate_up", "down"}, 0, 0},
        {"rows", "output rows per matrix (DeepSeek-V3 expert gate/up: 2048)", "2048", {}, 1, 1 << 20},
        {"cols", "reduction length, a multiple of the type's block (DeepSeek-V3 hidden: 7168)", "7168", {}, 32,
         1 << 20, 32},
        {"quant", "weight quant type", "q4_0", types, 0, 0},
        {"routing", "mul_mat_id: topk (distinct experts per token, as a router gives) or uniform (ids drawn "
                    "independently: a token may repeat an expert)", "topk", {"topk", "uniform"}, 0, 0},
    };
  }
  std::optional<std::string> check(const Params& p) const override {
    try {
      const MoeCallShape s = shape(p);
      if (std::string problem = gguf::moe_shape_problem(s); !problem.empty()) return problem;
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::nullopt;
  }

  std::unique_ptr<BoundCase> bind(const Params& p, const std::string& variant) const override {
    if (variant != "upstream" && variant != "exact")
      throw std::invalid_argument(name() + ": unknown variant '" + variant + "' (upstream, exact)");
    return std::make_unique<MatmulCase>(entry_, shape(p), p.get("routing") == "uniform", variant == "upstream");
  }

 private:
  static MoeCallShape shape(const Params& p) {
    MoeCallShape s;
    const std::string& op = p.get("op");
    if (op != "mul_mat" && op != "mul_mat_id") throw std::invalid_argument("axis 'op': '" + op + "'");
    s.dense = op == "mul_mat";
    s.tokens = p.get_u64("tokens");
    s.top_k = s.dense ? 1 : p.get_u64("top_k");
    s.experts = s.dense ? 1 : p.get_u64("experts");
    s.rows = p.get_u64("rows");
    s.cols = p.get_u64("cols");
    const auto quant = gguf::parse_quant_type(p.get("quant"));
    if (!quant) throw std::invalid_argument("axis 'quant': unknown type '" + p.get("quant") + "'");
    s.quant = *quant;
    type_constants(s.quant);  // throws for a type whose llama.cpp kernels are not built
    s.proj = !s.dense && p.get("proj") == "down" ? gguf::Projection::down : gguf::Projection::gate_up;
    return s;
  }

  Entry entry_;
};

}  // namespace

std::shared_ptr<const Kernel> make_matmul_kernel(Entry entry) { return std::make_shared<MatmulKernel>(entry); }

}  // namespace gridfuzz::llamacpp
