#include "affine_matmul_kernel.hpp"

#include <cmath>
#include <stdexcept>

#include "gridfuzz/affine/formats.hpp"
#include "gridfuzz/affine/device_ops.hpp"
#include "gridfuzz/parallel_for.hpp"

namespace gridfuzz::affine {
namespace {

ElementType element_type(Dtype d) { return d == Dtype::float16 ? ElementType::f16 : ElementType::bf16; }

// Magnitudes of the random inputs: activations in [1/16, 1), scales in [2^-9, 2^-6), biases in
// [2^-6, 2^-3), all with random signs (MLX scales can be negative). Outputs stay far inside fp16's
// range (|out| ~ sqrt(K)/10) and none of the inputs is ever zero.
constexpr float kXMin = 1.0f / 16, kXMax = 1.0f;
constexpr float kScaleMin = 1.0f / 512, kScaleMax = 1.0f / 64;
constexpr float kBiasMin = 1.0f / 64, kBiasMax = 1.0f / 8;

// Unit roundoff of the activation type: 2^-8 (bf16, 8-bit significand) or 2^-11 (fp16).
double unit_roundoff(Dtype d) { return d == Dtype::bfloat16 ? 0x1p-8 : 0x1p-11; }

template <class T>
T read_one(const BufferSet& bufs, std::size_t index, std::uint64_t element) {
  T v{};
  bufs.read(index, element * sizeof(T), &v, sizeof(T));
  return v;
}

}  // namespace

MatmulBufferIndex MatmulBufferIndex::of(const MatmulShape& s) {
  MatmulBufferIndex ix;
  if (s.gather) {
    ix.gather = true;
    ix.lhs = 4;
    ix.rhs = 5;
    ix.out = 6;
  }
  return ix;
}

Variant require_variant(const std::string& name) {
  if (auto v = parse_variant(name)) return *v;
  throw std::invalid_argument("affine: unknown variant '" + name + "' (legacy, fixed)");
}

std::vector<AxisSpec> AffineMatmulKernel::axes() const {
  std::vector<AxisSpec> a;
  if (call_ == MatmulCall::dense) {
    a = {
        {"tokens", "M, rows of x and out", "16", {}, 1, 1 << 22},
        {"vocab", "N, output columns (a multiple of 128)", "32000", {}, 128, 1 << 22, 128},
    };
  } else {
    a = {
        {"tokens", "tokens routed through the layer", "16", {}, 1, 1 << 20},
        {"top_k", "experts per token", "8", {}, 1, 16},
        {"experts", "experts in the weight stack", "128", {}, 1, 512},
        {"rows", "N, output columns per expert (a multiple of 128)", "768", {}, 128, 1 << 20, 128},
    };
  }
  a.push_back({"cols", "K, the reduction length (a multiple of max(64, group_size))", "4096", {}, 64, 1 << 16, 64});
  a.push_back({"bits", "weight bits (qmm_sm80 takes 4 and 8)", "4", {"4", "8"}, 0, 0});
  a.push_back({"group_size", "values per scale/bias group", "64", {"32", "64", "128"}, 0, 0});
  a.push_back({"dtype", "activation, scale, bias and output type", "bf16", {"bf16", "f16"}, 0, 0});
  return a;
}

MatmulShape AffineMatmulKernel::shape(const Params& p) const {
  MatmulShape s;
  if (call_ == MatmulCall::dense) {
    s.gather = false;
    s.m = p.get_u64("tokens");
    s.n = p.get_u64("vocab");
    s.batches = 1;
    s.x_batches = 1;
    s.experts = 1;
  } else {
    // l = tokens*top_k slices, lhs index = pair / top_k, rhs index = the pair's expert.
    s.gather = true;
    s.m = 1;
    s.n = p.get_u64("rows");
    s.batches = p.get_u64("tokens") * p.get_u64("top_k");
    s.x_batches = p.get_u64("tokens");
    s.experts = p.get_u64("experts");
  }
  s.k = p.get_u64("cols");
  s.bits = static_cast<int>(p.get_int("bits"));
  s.group_size = static_cast<int>(p.get_int("group_size"));
  const auto dtype = parse_dtype(p.get("dtype"));
  if (!dtype || !is_16bit(*dtype)) throw std::invalid_argument("affine: dtype must be bf16 or f16");
  s.dtype = *dtype;
  return s;
}

std::optional<std::string> AffineMatmulKernel::check(const Params& p) const {
  if (call_ == MatmulCall::gather && p.get_u64("top_k") > p.get_u64("experts")) return "top_k must not exceed experts";
  const MatmulShape s = shape(p);
  if (s.bits != 4 && s.bits != 8) return "bits must be 4 or 8 (qmm_sm80)";
  if (s.group_size != 32 && s.group_size != 64 && s.group_size != 128) return "group_size must be 32, 64 or 128";
  const std::uint64_t tile_k = static_cast<std::uint64_t>(qmm_tile_k(s.group_size));
  if (s.k == 0 || s.k % tile_k != 0)
    return "cols " + std::to_string(s.k) + " must be a multiple of max(64, group_size) = " + std::to_string(tile_k);
  if (s.n == 0 || s.n % kQmmTileN != 0)
    return "output columns " + std::to_string(s.n) + " must be a multiple of 128 (qmm_sm80 tile N)";
  return std::nullopt;
}

namespace {

// Our kernels: legacy (upstream's int32 host geometry, unchecked) or fixed.
class AffineQmmCase final : public AffineMatmulCase {
 public:
  AffineQmmCase(const MatmulShape& shape, Variant variant) : AffineMatmulCase(shape, false), variant_(variant) {}

  LaunchPlan plan(const DeviceLimits& limits) const override { return plan_matmul(s_, variant_, limits).plan; }
  std::vector<SplitPiece> split(const DeviceLimits& limits) const override { return split_pieces(s_, limits); }
  ComparePolicy compare_policy() const override {
    return {true, 0, 0,
            "bit-exact: the reference runs the same kernel (qmv or qmm, same tile_m; int64 index math, which "
            "changes only addresses) on every piece, and each output element is one thread's fixed-order K "
            "reduction with no split-K, so grid size, piece boundaries and index width cannot change it"};
  }
  void launch(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
              CUstream stream) const override {
    const AffinePlan plan = plan_matmul(s_, variant_, limits);
    if (plan.plan.host_error) return;  // upstream would divide by zero here; the runner records it
    const MatmulBuffers b = matmul_buffers(bufs);
    // Legacy launches are not checked (upstream ignores the launch result); fixed ones throw.
    for (const AffineLaunch& l : plan.launches) launch_planned(l, s_, b, launcher, stream, variant_ == Variant::fixed);
  }
  void launch_split_reference(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
                              CUstream stream) const override {
    const MatmulBuffers b = matmul_buffers(bufs);
    for (const AffineLaunch& l : reference_launches(s_, limits)) launch_planned(l, s_, b, launcher, stream, true);
  }
  // Buffers, inputs (AffineMatmulCase's) and the reference (reference_launches) are the shape's.
  bool reference_same_for_every_variant() const override { return true; }

 private:
  Variant variant_;
};

}  // namespace

std::unique_ptr<BoundCase> AffineMatmulKernel::bind(const Params& p, const std::string& variant) const {
  return std::make_unique<AffineQmmCase>(shape(p), require_variant(variant));
}

MatmulBuffers AffineMatmulCase::matmul_buffers(const BufferSet& bufs) const {
  MatmulBuffers b;
  b.x = bufs.ptr("x");
  b.w = bufs.ptr("w");
  b.scales = bufs.ptr("scales");
  b.biases = bufs.ptr("biases");
  if (s_.gather) {
    b.lhs = bufs.ptr("lhs_indices");
    b.rhs = bufs.ptr("rhs_indices");
  }
  b.out = bufs.ptr("out");
  return b;
}

std::vector<BufferSpec> AffineMatmulCase::buffers() const {
  const MatmulShape& s = s_;
  const ElementType t = element_type(s.dtype);
  const std::uint64_t weight_rows = s.experts * s.n;
  std::vector<BufferSpec> specs{
      {"x", BufferRole::input, t, s.x_batches * s.m * s.k},
      {"w", BufferRole::input, ElementType::u32, weight_rows * s.words_per_row()},
      {"scales", BufferRole::input, t, weight_rows * s.groups_per_row()},
      {"biases", BufferRole::input, t, weight_rows * s.groups_per_row()},
  };
  if (s.gather) {
    specs.push_back({"lhs_indices", BufferRole::input, ElementType::u32, s.batches});
    specs.push_back({"rhs_indices", BufferRole::input, ElementType::u32, s.batches});
  }
  specs.push_back({"out", BufferRole::output, t, s.out_elements()});
  return specs;
}

void AffineMatmulCase::fill_inputs(std::uint64_t seed, const BufferSet& bufs, CUstream stream) const {
  const MatmulShape& s = s_;
  const MatmulBufferIndex ix = MatmulBufferIndex::of(s);
  const auto count = [&](std::size_t i) { return bufs.bytes(i) / (i == ix.w || (ix.gather && (i == ix.lhs || i == ix.rhs)) ? 4 : 2); };
  fill_random_16bit(bufs.ptr(ix.x), count(ix.x), s.dtype, kXMin, kXMax, seed * 8 + 1, stream);
  fill_random_words(bufs.ptr(ix.w), count(ix.w), seed * 8 + 2, stream);
  fill_random_16bit(bufs.ptr(ix.scales), count(ix.scales), s.dtype, kScaleMin, kScaleMax, seed * 8 + 3, stream);
  fill_random_16bit(bufs.ptr(ix.biases), count(ix.biases), s.dtype, kBiasMin, kBiasMax, seed * 8 + 4, stream);
  if (ix.gather) {
    fill_pair_indices(bufs.ptr(ix.lhs), bufs.ptr(ix.rhs), s.batches, s.batches / s.x_batches, s.experts, seed * 8 + 5,
                      stream);
  }
}

std::vector<ReferenceSample> AffineMatmulCase::cpu_reference(const BufferSet& bufs, std::uint64_t seed,
                                                             std::size_t count) const {
  return cpu_reference(bufs, seed, count, cpu_reference_threads());
}

std::vector<ReferenceSample> AffineMatmulCase::cpu_reference(const BufferSet& bufs, std::uint64_t seed,
                                                             std::size_t count, std::size_t threads) const {
  const MatmulShape& s = s_;
  const MatmulBufferIndex ix = MatmulBufferIndex::of(s);
  const std::uint64_t slices = s.batches, rows = s.m;
  const std::uint64_t total_rows = slices * rows;  // output rows: (slice, row) flattened
  const bool qmv = u128{s.m} * s.batches < 8;
  const double u = unit_roundoff(s.dtype);
  const double fp32_sum = static_cast<double>(s.k) * 0x1p-24;
  const std::size_t chunk = s.bits <= 4 ? 16 : 8;  // qmv's per-lane chunk

  // One sample's inputs: its weight row and activation row, as read.
  struct Operands {
    QuantizedMatrix w;
    std::vector<std::uint16_t> x;
  };
  std::vector<Operands> operands(count);
  std::vector<ReferenceSample> out(count);
  std::uint64_t h = seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
  auto next = [&] {
    h = h * 6364136223846793005ull + 1442695040888963407ull;
    return h >> 17;
  };
  // Serially, on the calling thread (BufferSet::read needs its CUDA context): the random draws
  // and every read, in the order they always had, so the sample set does not depend on threads.
  for (std::size_t i = 0; i < count; ++i) {
    // Half the samples in the last 64 output rows: a row past an int32 or grid boundary fails first there.
    const std::uint64_t tail = std::min<std::uint64_t>(total_rows, 64);
    // Sample 1 is the last row of the last slice, whose expert is the highest (fill_kernels.cu).
    const std::uint64_t flat_row = i == 1 ? total_rows - 1 : i % 2 ? total_rows - 1 - next() % tail : next() % total_rows;
    const std::uint64_t col = next() % s.n;
    const std::uint64_t slice = flat_row / rows, row = flat_row % rows;
    const std::uint64_t x_row = ix.gather ? read_one<std::uint32_t>(bufs, ix.lhs, slice) * rows + row : flat_row;
    const std::uint64_t expert = ix.gather ? read_one<std::uint32_t>(bufs, ix.rhs, slice) : 0;
    const std::uint64_t w_row = expert * s.n + col;

    QuantizedMatrix& w = operands[i].w;
    w.params = {s.bits, s.group_size};
    w.scale_dtype = s.dtype;
    w.rows = 1;
    w.cols = s.k;
    w.words.resize(s.words_per_row());
    w.scales.resize(s.groups_per_row());
    w.biases.resize(s.groups_per_row());
    bufs.read(ix.w, w_row * s.words_per_row() * 4, w.words.data(), w.words.size() * 4);
    bufs.read(ix.scales, w_row * s.groups_per_row() * 2, w.scales.data(), w.scales.size() * 2);
    bufs.read(ix.biases, w_row * s.groups_per_row() * 2, w.biases.data(), w.biases.size() * 2);
    std::vector<std::uint16_t>& x = operands[i].x;
    x.resize(s.k);
    bufs.read(ix.x, x_row * s.k * 2, x.data(), x.size() * 2);
    out[i].buffer = ix.out;
    out[i].element = flat_row * s.n + col;
  }

  // In parallel: the float64 work, each result into its own slot (nothing here reads the device).
  parallel_for(count, threads, [&](std::size_t i) {
    const QuantizedMatrix& w = operands[i].w;
    const std::vector<std::uint16_t>& x = operands[i].x;
    // One pass over K for the dot and all its error scales. Each term x*(s*q + b) is formed as
    // reference_dot and reference_abs_dot form theirs (the stored x, scale and bias widened to
    // double, q unpacked), and each sum adds in K order as they do, so `expected` and `abs_dot`
    // have their bits (the CPU tests check it) at a third of the passes, without their checked
    // per-element accessors.
    double expected = 0, abs_dot = 0;
    // Error scales: exact terms x*w, and qmv's per-chunk magnitudes sum |x|(|s*q| + |b|).
    double sum_sq = 0, chunk_sq = 0, chunk_mag = 0;
    const std::size_t group_size = static_cast<std::size_t>(s.group_size);
    for (std::size_t g = 0; g < s.groups_per_row(); ++g) {
      const double sc = from_16bit_pattern(w.scales[g], s.dtype), bi = from_16bit_pattern(w.biases[g], s.dtype);
      for (std::size_t kk = g * group_size; kk < (g + 1) * group_size; ++kk) {
        const double xk = from_16bit_pattern(x[kk], s.dtype);
        const double q = unpack_element(w.words.data(), kk, s.bits);
        const double term = xk * (sc * q + bi);
        expected += term;
        abs_dot += std::fabs(term);
        sum_sq += term * term;
        chunk_mag += std::fabs(xk) * (std::fabs(sc * q) + std::fabs(bi));
        if ((kk + 1) % chunk == 0) {
          chunk_sq += chunk_mag * chunk_mag;
          chunk_mag = 0;
        }
      }
    }
    double abs_tol;
    if (!qmv) {
      // Weights rounded to the activation type (<= u each, independent signs: 6 sigma of the
      // random-walk sum) plus fp32 accumulation over K.
      abs_tol = 6 * u * std::sqrt(sum_sq) + fp32_sum * abs_dot;
    } else if (s.bits < 8 || qmv_rounds_8bit_weights_) {
      // Chunks of 16 summed in the activation type: ~4u per chunk magnitude, 6 sigma over chunks.
      // (8-bit weights rounded to the activation type: at most ~2u of each |x|(|s*q| + |b|), which
      // the same bound over chunks of 8 covers.)
      abs_tol = 24 * u * std::sqrt(chunk_sq) + fp32_sum * abs_dot;
    } else {
      abs_tol = 2 * fp32_sum * abs_dot;  // float accumulation only
    }
    // Output rounding to the activation type: 2u relative.
    out[i].expected = expected;
    out[i].rel_tol = 2 * u;
    out[i].abs_tol = abs_tol;
  });
  return out;
}

}  // namespace gridfuzz::affine
