// The gridfuzz adapter for q4_0_gemv.cuh, a new GGUF kernel, written on gridfuzz::formats: the
// inputs are quantized with the library's quantizers (q4_0 weights, q8_1 activations), the CPU
// reference is the library's float64 dot (reference_dot) and its fp32 error bound, and the kernel
// reads the library's block layouts. Nothing of the formats is written again here.
//
// `GgufGemv` is the family: its axes and two variants. `legacy` runs the kernel with int32 indices,
// a bug planted on purpose (q4_0_gemv.cuh): the model predicts the wrap of y's index past 2^31
// outputs, and on a GPU the case fails there. `fixed` runs it with int64 indices and passes
// everywhere. The split reference runs the fixed kernel over pieces of the tokens, so both
// variants are judged against the same reference outputs.
#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "gridfuzz/formats/gguf/blocks.hpp"
#include "gridfuzz/formats/gguf/quant_type.hpp"
#include "gridfuzz/formats/gguf/quantize.hpp"
#include "gridfuzz/formats/gguf/reference_dot.hpp"
#include "gridfuzz/plugin.hpp"
#include "q4_0_gemv.cuh"

using namespace gridfuzz;
namespace gg = gridfuzz::formats::gguf;

namespace {

constexpr gg::QuantType kWeights = gg::QuantType::q4_0;
constexpr gg::QuantType kActivations = gg::QuantType::q8_1;  // the activation format, unpadded rows
// The inputs are random rows quantized on the host, repeated: the weights every 61 rows, the
// activations every 59 tokens. Quantizing every row would take minutes at the largest shapes of
// the axes; with prime periods a row read at a wrong offset holds other values unless the offset
// is a multiple of the period.
constexpr std::uint64_t kWeightPeriod = 61;
constexpr std::uint64_t kActivationPeriod = 59;
// A split reference piece writes at most this many outputs (and at least one token's).
constexpr std::uint64_t kPieceOutputs = std::uint64_t{1} << 26;

class GgufGemvCase final : public BoundCase {
 public:
  GgufGemvCase(const Params& p, bool legacy)
      : rows_(p.get_u64("rows")), cols_(p.get_u64("cols")), tokens_(p.get_u64("tokens")), legacy_(legacy) {}

  // One launch; the three indices of the kernel, int32 (legacy) or int64 (fixed), with their
  // largest values; the three ints the host passes. No product here can overflow 64 bits: the axes
  // keep rows <= 2^20, cols <= 2^15 and tokens <= 2^21 (so x_block stays below 2^31 too).
  LaunchPlan plan(const DeviceLimits&) const override {
    const IndexType index = legacy_ ? IndexType::int32 : IndexType::int64;
    const std::uint64_t blocks = cols_ / 32;
    return {.launches = {launch_spec(tokens_)},
            .indices = {{"y_index", u128{tokens_} * rows_ - 1, index},
                        {"x_block", u128{tokens_} * blocks - 1, index},
                        {"w_block", u128{rows_} * blocks - 1, index}},
            .host_arguments = {{"rows", rows_, IndexType::int32},
                               {"cols", cols_, IndexType::int32},
                               {"tokens", tokens_, IndexType::int32}}};
  }
  std::vector<BufferSpec> buffers() const override {
    return {{"w", BufferRole::input, ElementType::u8, rows_ * gg::quant_row_bytes(kWeights, cols_)},
            {"x", BufferRole::input, ElementType::u8, tokens_ * gg::quant_row_bytes(kActivations, cols_)},
            {"y", BufferRole::output, ElementType::f32, tokens_ * rows_}};
  }
  bool reference_same_for_every_variant() const override { return true; }

  void fill_inputs(std::uint64_t seed, const BufferSet& b, CUstream) const override {
    std::mt19937_64 rng(seed);
    write_repeated(b, "w", quantized_rows(kWeights, kWeightPeriod, rng));
    write_repeated(b, "x", quantized_rows(kActivations, kActivationPeriod, rng));
  }

  // As the user's code would launch it: legacy unchecked, fixed checked.
  void launch(const DeviceLimits&, const BufferSet& b, device::Launcher& launcher, CUstream s) const override {
    if (legacy_) {
      launch_tokens(launcher, legacy_kernel(), b.ptr("w"), b.ptr("x"), b.ptr("y"), tokens_, s, false);
    } else {
      launch_tokens(launcher, fixed_kernel(), b.ptr("w"), b.ptr("x"), b.ptr("y"), tokens_, s, true);
    }
  }

  // Pieces of at most kPieceOutputs outputs, whole tokens each.
  std::vector<SplitPiece> split(const DeviceLimits&) const override {
    const std::uint64_t per_piece = std::max<std::uint64_t>(1, kPieceOutputs / rows_);
    std::vector<SplitPiece> pieces;
    for (std::uint64_t begin = 0; begin < tokens_; begin += per_piece) {
      pieces.push_back({"tokens", begin, std::min(tokens_, begin + per_piece)});
    }
    return pieces;
  }
  void launch_split_reference(const DeviceLimits& l, const BufferSet& b, device::Launcher& launcher,
                              CUstream s) const override {
    const std::uint64_t x_row = gg::quant_row_bytes(kActivations, cols_);
    for (const SplitPiece& piece : split(l)) {
      launch_tokens(launcher, fixed_kernel(), b.ptr("w"), b.ptr("x") + piece.begin * x_row,
                    b.ptr("y") + piece.begin * rows_ * sizeof(float), piece.end - piece.begin, s, true);
    }
  }

  // The last output (where an index wraps first), the first, and random ones, each against
  // reference_dot of the rows the GPU read, within the fp32 bound of reference_dot.hpp: this
  // kernel takes the q4_0 offset (q - 8) inside the integer dot, never through the q8_1 sum s, so
  // the exact dot is reference_dot and only fp32 rounding separates the two.
  std::vector<ReferenceSample> cpu_reference(const BufferSet& b, std::uint64_t seed, std::size_t count) const override {
    std::mt19937_64 rng(seed);
    std::vector<std::pair<std::uint64_t, std::uint64_t>> at = {{tokens_ - 1, rows_ - 1}, {0, 0}};  // (token, row)
    while (at.size() < count) at.push_back({rng() % tokens_, rng() % rows_});
    const std::uint64_t w_row = gg::quant_row_bytes(kWeights, cols_), x_row = gg::quant_row_bytes(kActivations, cols_);
    std::vector<gg::block_q4_0> w(cols_ / 32);
    std::vector<gg::block_q8_1> x(cols_ / 32);
    std::vector<ReferenceSample> samples;
    for (const auto& [token, row] : at) {
      b.read(b.index_of("w"), row * w_row, w.data(), w_row);
      b.read(b.index_of("x"), token * x_row, x.data(), x_row);
      const double dot = gg::reference_dot(kWeights, w.data(), x.data(), cols_);
      const double bound = gg::gpu_dot_fp32_relative_bound(kWeights, cols_) *
                           gg::reference_dot_magnitude(kWeights, w.data(), x.data(), cols_);
      samples.push_back({b.index_of("y"), token * rows_ + row, dot, 0.0, bound + 1e-30});
    }
    return samples;
  }

 private:
  static const device::Function& legacy_kernel() {
    static const device::Function fn =
        device::Function::from_symbol((const void*)q4_0_gemv_kernel<int>, "q4_0_gemv_kernel");
    return fn;
  }
  static const device::Function& fixed_kernel() {
    static const device::Function fn =
        device::Function::from_symbol((const void*)q4_0_gemv_kernel<std::int64_t>, "q4_0_gemv_kernel");
    return fn;
  }

  LaunchSpec launch_spec(std::uint64_t tokens) const {
    const dim3 g = q4_0_gemv_grid(static_cast<unsigned>(rows_), static_cast<unsigned>(tokens));
    return {.name = "q4_0_gemv_kernel", .grid = {g.x, g.y, g.z}, .block = {kGemvWarpsPerBlock * 32, 1, 1}};
  }
  // The kernel over `tokens` tokens: activations from `x`, outputs into `y` (a piece's rows of both).
  void launch_tokens(device::Launcher& launcher, const device::Function& fn, CUdeviceptr w, CUdeviceptr x,
                     CUdeviceptr y, std::uint64_t tokens, CUstream s, bool checked) const {
    int rows = static_cast<int>(rows_), cols = static_cast<int>(cols_), n = static_cast<int>(tokens);
    void* args[] = {&w, &x, &y, &rows, &cols, &n};
    if (checked) {
      launcher.launch_checked(fn, launch_spec(tokens), args, s);
    } else {
      launcher.launch(fn, launch_spec(tokens), args, s);
    }
  }

  // `count` rows of cols_ random values in [-1, 1), quantized with the library.
  std::vector<std::uint8_t> quantized_rows(gg::QuantType t, std::uint64_t count, std::mt19937_64& rng) const {
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    const std::uint64_t row_bytes = gg::quant_row_bytes(t, cols_);
    std::vector<float> values(cols_);
    std::vector<std::uint8_t> out(count * row_bytes);
    for (std::uint64_t r = 0; r < count; ++r) {
      for (float& v : values) v = value(rng);
      gg::quantize_row(t, values.data(), out.data() + r * row_bytes, cols_);
    }
    return out;
  }
  // Input `name` filled with `pattern` (whole rows) over and over: row r holds the pattern's row
  // r mod its period. Written in chunks of whole periods, so each chunk starts at a period's start.
  static void write_repeated(const BufferSet& b, const char* name, const std::vector<std::uint8_t>& pattern) {
    const std::size_t index = b.index_of(name);
    const std::uint64_t total = b.bytes(index);
    const std::uint64_t periods = std::max<std::uint64_t>(1, (std::uint64_t{32} << 20) / pattern.size());
    std::vector<std::uint8_t> chunk;
    for (std::uint64_t i = 0; i < periods; ++i) chunk.insert(chunk.end(), pattern.begin(), pattern.end());
    for (std::uint64_t offset = 0; offset < total; offset += chunk.size()) {
      b.write(index, offset, chunk.data(), std::min<std::uint64_t>(chunk.size(), total - offset));
    }
  }

  std::uint64_t rows_, cols_, tokens_;
  bool legacy_;
};

class GgufGemv final : public Kernel {
 public:
  std::string name() const override { return "my.q4_0_gemv"; }
  std::string description() const override {
    return "a user's q4_0 x q8_1 GEMV on gridfuzz::formats; legacy: int32 indices (a planted bug: y's index wraps "
           "past 2^31 outputs), fixed: int64";
  }
  std::vector<std::string> variants() const override { return {"legacy", "fixed"}; }
  std::vector<AxisSpec> axes() const override {
    return {Axis::integer("rows", 1, 1 << 20).default_value(4096).help("output features: weight rows"),
            Axis::integer("cols", 32, 32768).step(32).default_value(1024).help("hidden size: 32 values a block"),
            Axis::integer("tokens", 1, 1 << 21).default_value(16).help("activation rows: the batch")};
  }
  std::unique_ptr<BoundCase> bind(const Params& p, const std::string& variant) const override {
    if (variant != "legacy" && variant != "fixed") throw std::invalid_argument(name() + ": unknown variant '" + variant + "'");
    return std::make_unique<GgufGemvCase>(p, variant == "legacy");
  }
};

void register_kernels(Registry& registry) { registry.add(std::make_shared<GgufGemv>()); }

}  // namespace

GRIDFUZZ_PLUGIN(register_kernels)
