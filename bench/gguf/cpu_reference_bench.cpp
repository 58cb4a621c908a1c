// The float64 CPU reference of the GGUF GEMV call (gemv_call_cpu_reference, what gguf.*,
// llamacpp.* and vllm.* sample) on the host alone: no GPU. One iteration = one reference of
// kSamples samples of a wide gguf.moe_vec case (q4_0, rows 1408, cols 384384), with gguf's
// options and with llama.cpp mmvq's, on 1, 2, 4, ... threads up to the host's cores. Counter
// ms_per_sample: wall time of one iteration / samples.
//
// The buffers are in host memory. The weight bank of that shape (128 experts) would take 39 GB,
// so the weights buffer holds kPoolRows valid rows and every row of the bank reads one of them
// (row r reads pool row r % kPoolRows): the reference reads whole rows, so it sees valid blocks
// and does the same work per sample as on the real bank.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <random>
#include <thread>
#include <utility>
#include <vector>

#include "call_shape.hpp"
#include "gemv_call_parts.hpp"
#include "gridfuzz/gguf/formats.hpp"
#include "host_buffers.hpp"

namespace {

using namespace gridfuzz;

constexpr std::size_t kSamples = 256;
constexpr std::uint64_t kPoolRows = 64;

gguf::MoeCallShape wide_shape() {
  gguf::MoeCallShape s;
  s.tokens = 16;
  s.top_k = 8;
  s.experts = 128;
  s.rows = 1408;
  s.cols = 384384;
  s.quant = gguf::QuantType::q4_0;
  return s;
}

// The case's buffers with the weights folded onto kPoolRows rows (see the top of the file).
class PooledWeights final : public BufferSet {
 public:
  PooledWeights(const std::vector<BufferSpec>& specs, std::uint64_t row_bytes)
      : row_bytes_(row_bytes), host_(pooled(specs, row_bytes)) {}
  CUdeviceptr ptr(std::size_t) const override { return 0; }
  std::uint64_t bytes(std::size_t i) const override { return host_.bytes(i); }
  void read(std::size_t i, std::uint64_t offset, void* host, std::uint64_t n) const override {
    if (i == gguf::GemvBuffers::weights) offset = (offset / row_bytes_) % kPoolRows * row_bytes_ + offset % row_bytes_;
    host_.read(i, offset, host, n);
  }
  void write(std::size_t i, std::uint64_t offset, const void* host, std::uint64_t n) const override {
    host_.write(i, offset, host, n);
  }
  std::size_t index_of(std::string_view name) const override { return host_.index_of(name); }
  std::vector<std::uint8_t>& raw(std::string_view name) { return host_.raw(name); }

 private:
  static std::vector<BufferSpec> pooled(std::vector<BufferSpec> specs, std::uint64_t row_bytes) {
    specs[gguf::GemvBuffers::weights].elements = kPoolRows * row_bytes;
    return specs;
  }
  std::uint64_t row_bytes_;
  testing::HostBuffers host_;
};

// Valid inputs: activations of random sign and magnitude in [0.25, 1), q4_0 rows quantized from
// the same kind of values, expert ids in range.
void fill(const gguf::MoeCallShape& s, PooledWeights& b) {
  std::mt19937_64 rng(20261201);
  const auto value = [&] {
    return static_cast<float>((rng() & 1 ? -1 : 1) * (0.25 + 0.75 * std::ldexp(static_cast<double>(rng() >> 11), -53)));
  };
  std::vector<float> row(s.cols);
  auto& x = b.raw("x");
  for (std::size_t i = 0; i < x.size() / 4; ++i) {
    const float v = value();
    std::memcpy(x.data() + 4 * i, &v, 4);
  }
  auto& w = b.raw("weights");
  for (std::uint64_t r = 0; r < kPoolRows; ++r) {
    for (float& v : row) v = value();
    gguf::quantize_row(s.quant, row.data(), w.data() + r * s.weight_row_bytes(), s.cols);
  }
  auto& ids = b.raw("expert_ids");
  for (std::size_t i = 0; i < ids.size() / 4; ++i) {
    const int id = static_cast<int>(rng() % s.experts);
    std::memcpy(ids.data() + 4 * i, &id, 4);
  }
}

const PooledWeights& filled_buffers() {
  static PooledWeights bufs(gguf::gemv_call_buffers(wide_shape()), wide_shape().weight_row_bytes());
  static const bool filled = (fill(wide_shape(), bufs), true);  // once, thread-safe
  (void)filled;
  return bufs;
}

// `options`: an adapter's reference options; the thread count is the benchmark's argument.
void BM_GemvCpuReference(benchmark::State& state, gguf::GemvReferenceOptions options) {
  const gguf::MoeCallShape s = wide_shape();
  const PooledWeights& bufs = filled_buffers();
  options.threads = static_cast<std::size_t>(state.range(0));
  double seconds = 0;
  std::uint64_t seed = 1;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(gguf::gemv_call_cpu_reference(s, bufs, seed++, kSamples, options));
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  state.counters["ms_per_sample"] = 1e3 * seconds / (static_cast<double>(state.iterations()) * kSamples);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  // Thread counts up to the host's cores: more would measure the scheduler.
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  // gguf.moe_vec's options, and llama.cpp mmvq's (the bound for its fast-math quantizer).
  const std::pair<const char*, gguf::GemvReferenceOptions> variants[] = {
      {"BM_GemvCpuReference/gguf", {}},
      {"BM_GemvCpuReference/llamacpp_mmvq", {.check_q8_1_words = false, .fast_math_quantizer = true}},
  };
  for (const auto& [name, options] : variants) {
    auto* b = benchmark::RegisterBenchmark(name, BM_GemvCpuReference, options);
    b->ArgName("threads")->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(2);
    for (unsigned t = 1; t <= cores; t *= 2) b->Arg(t);
    if (cores & (cores - 1)) b->Arg(cores);  // and all of them when that is not a power of two
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
