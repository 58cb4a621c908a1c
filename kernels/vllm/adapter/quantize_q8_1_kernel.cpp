// vllm.quantize_q8_1: upstream's q8_1 activation quantizer on its own (quantize_row_q8_1_cuda,
// gguf_kernel.cu:72-86, the first step of every vLLM GGUF call), compiled unmodified.
//   upstream: tiles of 65535 rows with upstream's int tile offsets, unchecked;
//   chunked:  the same tiles with 64-bit offsets, checked.
// Buffers: x ([rows, cols] of `dtype`: f32, f16 or bf16, quantize_q8_1<scalar_t> as each entry point
// dispatches it, gguf_kernel.cu:116/:306/:408; input), q8_1 (int32 [rows, padded/32*9], output). Split
// reference: the chunked tiles over row pieces; CPU reference: sampled q8_1 words from gridfuzz's
// quantizer, bit for bit (the same float operations in the same order).
#include <algorithm>

#include "../cuda/upstream_kernels.hpp"
#include "../cuda/activation_fill.hpp"
#include "../plan/quantize_plan.hpp"
#include "activation_dtype.hpp"
#include "gridfuzz/device/function.hpp"
#include "gridfuzz/gguf/formats.hpp"
#include "gridfuzz/vllm/register.hpp"
#include "q8_1_samples.hpp"  // kernels/gguf/adapter: the GGUF family's q8_1 CPU reference
#include "scalar_call_parts.hpp"
#include "upstream_launch.hpp"

namespace gridfuzz::vllm {
namespace {

class QuantizeQ8_1Case final : public BoundCase {
 public:
  QuantizeQ8_1Case(std::uint64_t rows, std::uint64_t cols, ScalarKind dtype, MoeVecVariant variant)
      : rows_(rows), cols_(cols), k_(dtype), v_(variant) {}

  LaunchPlan plan(const DeviceLimits&) const override {
    LaunchPlan plan;
    for (const QuantizeLaunch& l : quantize_launches(v_, rows_, cols_, upstream_constants(),
                                                     plan.host_error))
      plan.launches.push_back(l.spec);
    plan.indices = quantize_index_ranges(v_, rows_, cols_);
    return plan;
  }
  std::vector<BufferSpec> buffers() const override {
    return {{"x", BufferRole::input, element_type(k_), rows_ * cols_},
            {"q8_1", BufferRole::output, ElementType::i32, rows_ * gguf::q8_1_row_stride_int32(cols_)}};
  }
  std::vector<SplitPiece> split(const DeviceLimits& limits) const override {
    std::vector<SplitPiece> pieces;
    const std::uint64_t rows = rows_, per = std::max<std::uint64_t>(limits.max_grid_y, 1);
    for (std::uint64_t r0 = 0; r0 < rows; r0 += per) pieces.push_back({"rows", r0, std::min(rows, r0 + per)});
    return pieces;
  }
  ComparePolicy compare_policy() const override {
    return {true, 0, 0, "the same upstream kernel over row pieces: one warp per q8_1 block, bit-exact"};
  }
  void fill_inputs(std::uint64_t seed, const BufferSet& bufs, CUstream stream) const override {
    fill_activations(k_, bufs.ptr("x"), rows_ * cols_, seed, stream);
  }
  // Buffers, inputs and the reference (the chunked kernel over row pieces) are the shape's.
  bool reference_same_for_every_variant() const override { return true; }
  void launch(const DeviceLimits&, const BufferSet& bufs, device::Launcher& launcher, CUstream stream) const override {
    issue(v_, rows_, cols_, k_, bufs.as<void>("x"), bufs.as<int>("q8_1"), launcher, stream,
          v_ == MoeVecVariant::chunked);
  }
  void launch_split_reference(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
                              CUstream stream) const override {
    for (const SplitPiece& piece : split(limits))
      issue(MoeVecVariant::chunked, piece.end - piece.begin, cols_, k_,
            advance_scalar(bufs.as<void>("x"), k_, static_cast<std::int64_t>(piece.begin * cols_)),
            bufs.as<int>("q8_1") + piece.begin * gguf::q8_1_row_stride_int32(cols_), launcher, stream, true);
  }
  std::vector<ReferenceSample> cpu_reference(const BufferSet& bufs, std::uint64_t seed,
                                             std::size_t count) const override {
    const std::size_t x_buffer = bufs.index_of("x");
    // The activations as stored, widened to float exactly (quantize_q8_1's static_cast<float>).
    return gguf::q8_1_word_samples(bufs.index_of("q8_1"), rows_, cols_, seed ^ 0xA54FF53A5F1D36F1ull, count,
                                   [&](std::uint64_t row, float* x) {
                                     if (k_ == ScalarKind::f32)
                                       bufs.read(x_buffer, row * cols_ * 4, x, cols_ * 4);
                                     else
                                       WidenedActivations(bufs, x_buffer, k_).read(x_buffer, row * cols_ * 4, x,
                                                                                   cols_ * 4);
                                   });
  }

 private:
  static void issue(MoeVecVariant v, std::uint64_t rows, std::uint64_t cols, ScalarKind k, void* x, int* q8,
                    device::Launcher& launcher, CUstream stream, bool checked) {
    std::optional<std::string> host_error;  // the plan reports it; the runner then launches nothing
    issue_quantize(quantize_launches(v, rows, cols, upstream_constants(), host_error), k, x, q8, launcher, stream,
                   checked);
  }

  std::uint64_t rows_, cols_;
  ScalarKind k_;
  MoeVecVariant v_;
};

class QuantizeQ8_1Kernel final : public Kernel {
 public:
  std::string name() const override { return "vllm.quantize_q8_1"; }
  std::string description() const override {
    return "vLLM's q8_1 activation quantizer (vllm-gguf-plugin 0.0.5, unmodified): tiles of 65535 rows on grid.y; "
           "upstream with int tile offsets, chunked with 64-bit ones";
  }
  std::vector<std::string> variants() const override { return {"upstream", "chunked"}; }
  std::vector<AxisSpec> axes() const override {
    return {{"rows", "activation rows (tokens)", "64", {}, 1, 1ll << 28},
            {"cols", "columns per row, padded to 512 in q8_1 (gemma-4 hidden: 2816)", "2816", {}, 1, 1 << 20},
            dtype_axis()};
  }
  std::optional<std::string> check(const Params& p) const override {
    try {
      if (p.get_u64("rows") == 0 || p.get_u64("cols") == 0) return "rows and cols must be at least 1";
      scalar_kind_from(p);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::nullopt;
  }
  std::unique_ptr<BoundCase> bind(const Params& p, const std::string& variant) const override {
    return std::make_unique<QuantizeQ8_1Case>(p.get_u64("rows"), p.get_u64("cols"), scalar_kind_from(p),
                                              parse_moe_vec_variant(variant));
  }
};

}  // namespace

std::shared_ptr<const Kernel> make_quantize_q8_1_kernel() { return std::make_shared<QuantizeQ8_1Kernel>(); }

}  // namespace gridfuzz::vllm
