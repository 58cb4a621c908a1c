#include "gemv_call_parts.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <random>
#include <stdexcept>

#include "gridfuzz/gguf/formats.hpp"
#include "gridfuzz/parallel_for.hpp"
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
    std::vector<block_q8_1> q;  // CPU q8_1 of x, filled in the parallel part
    std::optional<FastDivisionQ8_1Row> fast_division;  // for options.fast_math_quantizer, likewise
  };
  std::map<std::uint64_t, ActRow> act_rows;  // activation row -> its values and CPU q8_1 (nodes never move)
  std::vector<ActRow*> new_rows;             // in the order first read
  // One dst sample: where its inputs are, and where its results go in `out`.
  struct Pending {
    std::uint64_t act_row = 0;
    ActRow* act = nullptr;
    std::size_t slot = 0;     // out[slot]: the dst sample
    bool q8_word = false;     // out[slot + 1]: one word of the activation row's q8_1
    std::uint64_t word = 0;
  };
  std::vector<Pending> pending;
  pending.reserve(count);
  std::vector<ReferenceSample> out;
  // The weight row of sample k at weights[k * row_bytes], all held until the parallel part: about
  // 1 byte a column per sample, where each activation row held takes 4 (plus its q8_1).
  std::vector<std::uint8_t> weights(count * row_bytes);

  // Serially, on the calling thread (BufferSet::read needs its CUDA context): the random draws
  // and every read, in the order they always had, so the sample set does not depend on threads.
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
    Pending p;
    p.act_row = s.proj == Projection::down || s.dense ? pair : pair / s.top_k;
    auto [it, inserted] = act_rows.try_emplace(p.act_row);
    p.act = &it->second;
    if (inserted) {
      p.act->x.resize(s.cols);
      bufs.read(GemvBuffers::x, p.act_row * s.cols * 4, p.act->x.data(), s.cols * 4);
      new_rows.push_back(p.act);
    }
    bufs.read(GemvBuffers::weights, (expert * s.rows + row) * row_bytes, weights.data() + k * row_bytes, row_bytes);
    p.slot = out.size();
    out.push_back({dst_index, pair * s.rows + row, 0, 0, 0});
    // Every 8th sample also checks one word of that activation row's q8_1 bit for bit.
    if (options.check_q8_1_words && k % 8 == 0) {
      p.q8_word = true;
      p.word = rng() % s.token_stride();
      out.push_back({q8_index, p.act_row * s.token_stride() + p.word, 0, 0, 0});
    }
    pending.push_back(p);
  }

  // In parallel: the float64 work, each result into its own slot (nothing here reads the device).
  const std::size_t threads = options.threads != 0 ? options.threads : cpu_reference_threads();
  parallel_for(new_rows.size(), threads, [&](std::size_t i) {
    ActRow& a = *new_rows[i];
    a.q.resize(q8_blocks);
    quantize_row_q8_1(a.x.data(), s.cols, a.q.data());
    // The bound's part that depends on the activation row alone, once for all its samples.
    if (options.fast_math_quantizer) a.fast_division.emplace(a.x.data(), a.q.data(), s.cols);
  });
  // Per worker thread: the sample's dot and bounds from one pass over its rows (the same bits as
  // the free functions of reference_dot.hpp), in storage reused from sample to sample.
  std::vector<ElementDot> dots(parallel_workers(count, threads));
  parallel_for_with_workers(count, threads, [&](std::size_t k, std::size_t worker) {
    const Pending& p = pending[k];
    const std::vector<block_q8_1>& q = p.act->q;
    ElementDot& dot = dots[worker];
    dot.assign(s.quant, weights.data() + k * row_bytes, q.data(), s.cols,
               options.fast_math_quantizer ? &*p.act->fast_division : nullptr);
    // Our kernels and vLLM's GEMVs fold a block's offset through the stored q8_1 sum s, so the
    // tight reference follows them; vLLM's MMQ kernels fold for some types and subtract the
    // offset from the quants for others (q5_0, the K-quants): the plain dequantized dot, with the
    // tolerance that covers both (gpu_dot_tolerance), widened to one thread's serial sum.
    double expected = 0, tol = 0;
    if (options.serial_dot) {
      const double m = dot.magnitude();
      expected = dot.dot();
      tol = dot.tolerance() +
            (gpu_dot_fp32_serial_bound(s.quant, s.cols) - gpu_dot_fp32_relative_bound(s.quant, s.cols)) * m;
    } else {
      expected = dot.dot_via_q8_1_sums();
      tol = dot.tolerance_via_q8_1_sums();
    }
    if (options.fp16_scale_products) tol += dot.fp16_scale_product_error_bound();
    if (options.fp32_activation_scale) tol += std::ldexp(dot.magnitude(), -11);
    if (options.fast_math_quantizer) tol += dot.fast_division_q8_1_error_bound();
    if (s.dtype == OutDtype::bf16) tol += std::ldexp(std::fabs(expected) + tol, -8);  // bf16 rounding: <= 2^-9 relative
    out[p.slot].expected = expected;
    out[p.slot].abs_tol = tol;
    if (p.q8_word) {
      std::int32_t expected_word = 0;
      std::memcpy(&expected_word, reinterpret_cast<const std::uint8_t*>(q.data()) + p.word * 4, 4);
      out[p.slot + 1].expected = static_cast<double>(expected_word);
    }
  });
  return out;
}

}  // namespace gridfuzz::gguf
