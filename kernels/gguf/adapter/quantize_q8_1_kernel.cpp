// gguf.quantize_q8_1: the activation quantizer on its own
// (docs/KERNELS.md, "q8_1 activation quantization", "vLLM quantize_q8_1 launch").
//   legacy: pre-tiling vLLM, all rows on grid.y in one launch (refused at 65536 rows), int32
//           index math, unchecked;
//   fixed:  rows tiled at the device's grid.y limit, 64-bit offsets and indices, every launch
//           checked.
// Buffers: x (f32 [rows, cols], input), q8_1 (int32 [rows, padded/32*9], output).
#include <algorithm>
#include <stdexcept>

#include "gridfuzz/checked_math.hpp"
#include "gridfuzz/gguf/formats.hpp"
#include "gridfuzz/gguf/register.hpp"
#include "launch_geometry.hpp"
#include "q8_1_samples.hpp"
#include "quantize_q8_1_launch.hpp"
#include "random_fill.hpp"

namespace gridfuzz::gguf {
namespace {

QuantizeGeometry geometry_of(const std::string& variant) {
  if (variant == "legacy") return QuantizeGeometry::one_launch;
  if (variant == "fixed") return QuantizeGeometry::tiles_64;
  throw std::invalid_argument("gguf.quantize_q8_1: unknown variant '" + variant + "'");
}

class QuantizeQ8_1Case final : public BoundCase {
 public:
  QuantizeQ8_1Case(std::uint64_t rows, std::uint64_t cols, QuantizeGeometry geometry)
      : rows_(rows), cols_(cols), geometry_(geometry) {}

  LaunchPlan plan(const DeviceLimits& limits) const override {
    LaunchPlan plan;
    for (const auto& l : quantize_launches(geometry_, rows_, cols_, limits)) plan.launches.push_back(l.spec);
    plan.indices = quantize_indices(geometry_, rows_, cols_, limits);
    return plan;
  }
  std::vector<BufferSpec> buffers() const override {
    return {{"x", BufferRole::input, ElementType::f32, rows_ * cols_},
            {"q8_1", BufferRole::output, ElementType::i32, rows_ * q8_1_row_stride_int32(cols_)}};
  }
  std::vector<SplitPiece> split(const DeviceLimits& limits) const override {
    std::vector<SplitPiece> pieces;
    for (std::uint64_t r0 = 0; r0 < rows_; r0 += limits.max_grid_y)
      pieces.push_back({"rows", r0, std::min(rows_, r0 + limits.max_grid_y)});
    return pieces;
  }
  ComparePolicy compare_policy() const override {
    return {true, 0, 0, "one warp per q8_1 block, fixed shuffle order: bit-exact"};
  }
  void fill_inputs(std::uint64_t seed, const BufferSet& bufs, CUstream stream) const override {
    fill_activations(bufs.as<float>("x"), rows_ * cols_, seed, stream);
  }
  // Buffers, inputs and the reference (tiles_64 over row pieces) are the shape's.
  bool reference_same_for_every_variant() const override { return true; }
  void launch(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
              CUstream stream) const override {
    launch_quantize_q8_1(geometry_, bufs.as<float>("x"), bufs.as<int>("q8_1"), rows_, cols_, limits, launcher, stream,
                         geometry_ == QuantizeGeometry::tiles_64);
  }
  void launch_split_reference(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
                              CUstream stream) const override {
    for (const SplitPiece& piece : split(limits))
      launch_quantize_q8_1(QuantizeGeometry::tiles_64, bufs.as<float>("x") + piece.begin * cols_,
                           bufs.as<int>("q8_1") + piece.begin * q8_1_row_stride_int32(cols_), piece.end - piece.begin,
                           cols_, limits, launcher, stream, true);
  }
  // Sampled q8_1 words against the CPU quantizer, exactly (same float operations, same order).
  std::vector<ReferenceSample> cpu_reference(const BufferSet& bufs, std::uint64_t seed,
                                             std::size_t count) const override {
    const std::size_t x_buffer = bufs.index_of("x");
    return q8_1_word_samples(bufs.index_of("q8_1"), rows_, cols_, seed ^ 0xBB67AE8584CAA73Bull, count,
                             [&](std::uint64_t row, float* x) { bufs.read(x_buffer, row * cols_ * 4, x, cols_ * 4); });
  }

 private:
  std::uint64_t rows_, cols_;
  QuantizeGeometry geometry_;
};

class QuantizeQ8_1Kernel final : public Kernel {
 public:
  std::string name() const override { return "gguf.quantize_q8_1"; }
  std::string description() const override {
    return "q8_1 activation quantizer: rows on grid.y (legacy: one launch, refused at 65536 rows; fixed: tiled, 64-bit)";
  }
  std::vector<std::string> variants() const override { return {"legacy", "fixed"}; }
  std::vector<AxisSpec> axes() const override {
    return {{"rows", "activation rows (grid.y)", "64", {}, 1, 1ll << 28},
            {"cols", "columns per row, padded to 512 in q8_1 (gemma-4 hidden: 2816)", "2816", {}, 1, 1 << 20}};
  }
  std::optional<std::string> check(const Params& p) const override {
    try {
      if (p.get_u64("rows") == 0 || p.get_u64("cols") == 0) return "rows and cols must be at least 1";
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::nullopt;
  }
  std::unique_ptr<BoundCase> bind(const Params& p, const std::string& variant) const override {
    return std::make_unique<QuantizeQ8_1Case>(p.get_u64("rows"), p.get_u64("cols"), geometry_of(variant));
  }
};

}  // namespace

std::shared_ptr<const Kernel> make_quantize_q8_1_kernel() { return std::make_shared<QuantizeQ8_1Kernel>(); }

}  // namespace gridfuzz::gguf
