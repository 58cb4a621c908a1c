#include "gemv_call_parts.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <stdexcept>

#include "gridfuzz/gguf/blocks.hpp"
#include "gridfuzz/gguf/quantize_q8_1.hpp"
#include "gridfuzz/gguf/reference_dot.hpp"
#include "random_fill.hpp"

namespace gridfuzz::gguf {

std::vector<AxisSpec> gemv_shape_axes(bool dense, const std::string& nvecs_launch,
                                      const std::vector<std::string>& quant_names) {
  std::vector<AxisSpec> a;
  if (dense) {
    a.push_back({"nvecs", "activation vectors (grid.y of the " + nvecs_launch + " launch)", "8", {}, 1, 1ll << 26});
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
  a.push_back({"quant", "weight quant type", "q4_0", quant_names, 0, 0});
  return a;
}

std::vector<BufferSpec> gemv_call_buffers(const MoeCallShape& s) {
  std::vector<BufferSpec> b;
  b.push_back({"x", BufferRole::input, ElementType::f32, s.activation_rows() * s.cols});
  b.push_back({"weights", BufferRole::input, ElementType::u8, s.weight_bytes()});
  if (!s.dense) b.push_back({"expert_ids", BufferRole::input, ElementType::i32, s.pairs()});
  b.push_back({"q8_1", BufferRole::output, ElementType::i32, s.q8_1_words()});
  b.push_back({"dst", BufferRole::output, s.dtype == OutDtype::f32 ? ElementType::f32 : ElementType::bf16,
               s.pairs() * s.rows});
  return b;
}

std::uint64_t gemv_call_bytes_moved(const MoeCallShape& s) {
  const std::uint64_t experts_hit = s.dense ? 1 : std::min(s.experts, s.pairs());
  return s.activation_rows() * s.cols * 4 + 2 * s.q8_1_words() * 4 + (s.dense ? 0 : s.pairs() * 4) +
         experts_hit * s.rows * s.weight_row_bytes() + s.pairs() * s.rows * s.out_bytes_per_value();
}

void fill_gemv_call_inputs(const MoeCallShape& s, std::uint64_t seed, const BufferSet& bufs, CUstream stream) {
  fill_activations(bufs.as<float>(GemvBuffers::x), s.activation_rows() * s.cols, seed, stream);
  fill_weight_blocks(bufs.as<std::uint8_t>(GemvBuffers::weights), s.weight_bytes() / quant_traits(s.quant).block_bytes,
                     s.quant, seed, stream);
  if (!s.dense) fill_expert_ids(bufs.as<int>(GemvBuffers::ids), s.pairs(), s.experts, seed, stream);
}

std::vector<ReferenceSample> gemv_call_cpu_reference(const MoeCallShape& s, const BufferSet& bufs, std::uint64_t seed,
                                                     std::size_t count, const GemvReferenceOptions& options) {
  const std::size_t q8_index = GemvBuffers::q8_1(s), dst_index = GemvBuffers::dst(s);
  const std::uint64_t pairs = s.pairs();
  const std::uint64_t row_bytes = s.weight_row_bytes();
  const std::uint64_t q8_blocks = q8_1_blocks_per_row(s.cols);
  std::mt19937_64 rng(seed ^ 0x6A09E667F3BCC909ull);
  struct ActRow {
    std::vector<float> x;
    std::vector<block_q8_1> q;
  };
  std::map<std::uint64_t, ActRow> act_rows;  // activation row -> its values and CPU q8_1
  auto activation_row = [&](std::uint64_t a) -> const ActRow& {
    auto it = act_rows.find(a);
    if (it != act_rows.end()) return it->second;
    ActRow row{std::vector<float>(s.cols), std::vector<block_q8_1>(q8_blocks)};
    bufs.read(GemvBuffers::x, a * s.cols * 4, row.x.data(), s.cols * 4);
    quantize_row_q8_1(row.x.data(), s.cols, row.q.data());
    return act_rows.emplace(a, std::move(row)).first->second;
  };
  std::vector<ReferenceSample> out;
  std::vector<std::uint8_t> w(row_bytes);
  for (std::size_t k = 0; k < count; ++k) {
    // Half the samples in the last 64 pairs, where a geometry bug shows first.
    const std::uint64_t tail = std::min<std::uint64_t>(pairs, 64);
    // Sample 1 is the last pair, which the inputs route to the highest expert (random_fill.cu).
    const std::uint64_t pair = k == 1 ? pairs - 1 : k % 2 ? pairs - 1 - rng() % tail : rng() % pairs;
    const std::uint64_t row = k % 4 == 1 ? s.rows - 1 : rng() % s.rows;
    std::uint64_t expert = 0;
    if (!s.dense) {
      int id = 0;
      bufs.read(GemvBuffers::ids, pair * 4, &id, 4);
      if (id < 0 || static_cast<std::uint64_t>(id) >= s.experts) throw std::runtime_error("expert id out of range");
      expert = static_cast<std::uint64_t>(id);
    }
    const std::uint64_t act_row = s.proj == Projection::down || s.dense ? pair : pair / s.top_k;
    const ActRow& act = activation_row(act_row);
    const std::vector<block_q8_1>& q = act.q;
    bufs.read(GemvBuffers::weights, (expert * s.rows + row) * row_bytes, w.data(), row_bytes);
    // Our kernels and vLLM's GEMVs fold a block's offset through the stored q8_1 sum s, so the
    // tight reference follows them; vLLM's MMQ kernels fold for some types and subtract the
    // offset from the quants for others (q5_0, the K-quants): the plain dequantized dot, with the
    // tolerance that covers both (gpu_dot_tolerance), widened to one thread's serial sum.
    double expected = 0, tol = 0;
    if (options.serial_dot) {
      const double m = reference_dot_magnitude(s.quant, w.data(), q.data(), s.cols);
      expected = reference_dot(s.quant, w.data(), q.data(), s.cols);
      tol = gpu_dot_tolerance(s.quant, w.data(), q.data(), s.cols) +
            (gpu_dot_fp32_serial_bound(s.quant, s.cols) - gpu_dot_fp32_relative_bound(s.quant, s.cols)) * m;
    } else {
      expected = reference_dot_via_q8_1_sums(s.quant, w.data(), q.data(), s.cols);
      tol = gpu_dot_tolerance_via_q8_1_sums(s.quant, w.data(), q.data(), s.cols);
    }
    if (options.fp16_scale_products) tol += fp16_scale_product_error_bound(s.quant, w.data(), q.data(), s.cols);
    if (options.fp32_activation_scale)
      tol += std::ldexp(reference_dot_magnitude(s.quant, w.data(), q.data(), s.cols), -11);
    if (options.fast_math_quantizer)
      tol += fast_division_q8_1_error_bound(s.quant, w.data(), act.x.data(), q.data(), s.cols);
    if (s.dtype == OutDtype::bf16) tol += std::ldexp(std::fabs(expected) + tol, -8);  // bf16 rounding: <= 2^-9 relative
    out.push_back({dst_index, pair * s.rows + row, expected, 0, tol});
    // Every 8th sample also checks one word of that activation row's q8_1 bit for bit.
    if (options.check_q8_1_words && k % 8 == 0) {
      const std::uint64_t word = rng() % s.token_stride();
      std::int32_t expected_word = 0;
      std::memcpy(&expected_word, reinterpret_cast<const std::uint8_t*>(q.data()) + word * 4, 4);
      out.push_back({q8_index, act_row * s.token_stride() + word, static_cast<double>(expected_word), 0, 0});
    }
  }
  return out;
}

}  // namespace gridfuzz::gguf
