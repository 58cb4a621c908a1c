// GGUF MoE GEMV speed: legacy vs fixed vs zchunk (and rows_x, pairs_x, by_expert) moe_vec on the
// gemma-4 gate/up shape (rows 1408, cols 2816, 128 experts, top_k 8), side by side in one run, plus
// the device-to-device copy bandwidth of the same device in the same run; and, at decode sizes
// (1-64 tokens), ours (fixed, by_expert) beside vLLM's released kernel (vllm.moe_vec upstream,
// where the build has it) at the shapes of issue #33: gemma-4 gate/up 1408 x 2816 and
// Qwen3-235B-A22B 3072 x 4096 and 4096 x 1536, q4_0, 128 experts, top_k 8.
//
// One iteration = the adapter's production call (q8_1 quantize + moe_vec; by_expert's pre-pass
// included), timed with CUDA events (UseManualTime); L2 is flushed before every iteration (a write
// of twice its size), so small batches are not served from a warm L2. Variants of one shape run back
// to back on the same buffers (vLLM's on buffers of its own, filled from the same seed), so their
// ratio is as fair as the device allows. fixed_idx64: the fixed call on the 64-bit kernel (see
// BM_MoeVecIdx64).
//
// Method, the counters:
//   bytes, GBps_median: BoundCase::bytes_moved (activations, q8_1, ids, the weights of
//     min(experts, pairs) experts, dst) over the median call time.
//   distinct_experts, distinct_expert_bytes: the experts the call's ids use (read back from the
//     expert_ids buffer) and their weight bytes (distinct_experts * rows * row bytes): what a call
//     must read from DRAM at least.
//   distinct_expert_GBps: distinct_expert_bytes over the median call time (events around the whole
//     call), in 1e9 bytes per second: "the read rate of the distinct experts' bytes" of issue #33.
//     Divided by the copy benchmark's GBps_median (its read and written bytes over its time: what
//     the device's DRAM moves per second) it is the share of the DRAM rate the call reaches.
//   kernel_us_median, distinct_expert_GBps_kernel: the same with the median kernel time (CUPTI:
//     the time in which any kernel of the call ran, quantize and pre-pass included; absent when
//     CUPTI cannot record), which leaves out the host's launch gaps.
#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "gridfuzz/device/context.hpp"
#include "gridfuzz/device/device.hpp"
#include "gridfuzz/device/device_buffer.hpp"
#include "gridfuzz/device/event.hpp"
#include "gridfuzz/device/kernel_activity.hpp"
#include "gridfuzz/device/stream.hpp"
#include "call_shape.hpp"
#include "gemv_launch.hpp"
#include "gridfuzz/gguf/register.hpp"
#include "gridfuzz/engine/guarded_buffers.hpp"
#include "quantize_q8_1_launch.hpp"
#ifdef GRIDFUZZ_HAS_VLLM
#include "gridfuzz/vllm/register.hpp"
#endif

namespace {

using namespace gridfuzz;

struct BenchDevice {
  device::PrimaryContext ctx{0};
  DeviceLimits limits = device::query_limits(0);
  device::Stream stream;
  device::DeviceBuffer flush{std::max<std::uint64_t>(2 * limits.l2_bytes, 1 << 20)};
  std::shared_ptr<const Kernel> moe = gguf::make_moe_vec_kernel();
#ifdef GRIDFUZZ_HAS_VLLM
  std::shared_ptr<const Kernel> vllm_moe = vllm::make_moe_vec_kernel();
#endif
  // The buffers of the kernel and shape benchmarked last (variants of one shape share them).
  std::string shape_key;
  std::unique_ptr<GuardedBuffers> bufs;
};

BenchDevice& bench_device() {
  static BenchDevice d;
  return d;
}

Params gemma_params(const Kernel& k, const std::string& quant, std::int64_t tokens) {
  Params p = Params::defaults(k.axes());
  p.set("rows", "1408");
  p.set("cols", "2816");
  p.set("experts", "128");
  p.set("top_k", "8");
  p.set("quant", quant);
  p.set("tokens", std::to_string(tokens));
  return p;
}

void flush_l2(BenchDevice& d) {
  static std::uint32_t v = 0;
  d.flush.fill_words(++v);
}

// Makes the buffers of kernel k at shape p current (filled once per kernel and shape; variants of a
// shape share them). `variant`: one of k's, to bind the case that declares the buffers.
void use_shape(BenchDevice& d, const Params& p, const Kernel& k, const std::string& variant) {
  const std::string key = k.name() + "/" + p.to_string();
  if (d.shape_key == key) return;
  d.bufs.reset();
  const auto bound = k.bind(p, variant);  // inputs are the same for every variant
  d.bufs = std::make_unique<GuardedBuffers>(bound->buffers());
  bound->fill_inputs(1, *d.bufs, d.stream.get());
  d.stream.synchronize();
  d.shape_key = key;
}

// Times `call` (one production call through `launcher`) as the benchmark's iterations, with the
// L2 flushed before each, and sets the bytes / GB/s / median counters.
// The experts the ids of the current buffers use, and their weight bytes.
struct DistinctExperts {
  std::uint64_t experts = 0;
  double bytes = 0;
};
DistinctExperts distinct_experts(const BenchDevice& d, const gguf::MoeCallShape& s) {
  const std::size_t ids = d.bufs->index_of("expert_ids");
  std::vector<std::int32_t> host(s.pairs());
  d.bufs->read(ids, 0, host.data(), host.size() * 4);
  const std::set<std::int32_t> used(host.begin(), host.end());
  return {used.size(), static_cast<double>(used.size()) * static_cast<double>(s.rows * s.weight_row_bytes())};
}

// Median kernel time of `call` in ms (CUPTI), or nothing where kernel activity cannot be recorded.
template <class Call>
std::optional<double> median_kernel_ms(BenchDevice& d, Call call, int samples) {
  if (device::KernelActivity::unavailable_reason()) return std::nullopt;
  std::vector<double> ms;
  try {
    for (int i = 0; i < samples; ++i) {
      flush_l2(d);
      cudaDeviceSynchronize();
      device::KernelActivity activity;
      call();
      cudaDeviceSynchronize();
      ms.push_back(device::busy_ms(activity.take()));
    }
  } catch (const device::KernelActivityUnavailable&) {
    return std::nullopt;
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

template <class Call>
void time_calls(benchmark::State& state, BenchDevice& d, const Params& p, device::Launcher& launcher, Call call) {
  device::Event start, stop;
  call();  // warm-up
  d.stream.synchronize();
  std::vector<double> ms;
  for (auto _ : state) {
    flush_l2(d);
    cudaDeviceSynchronize();
    launcher.clear();
    start.record(d.stream.get());
    call();
    stop.record(d.stream.get());
    stop.synchronize();
    const double t = stop.elapsed_ms_since(start);
    ms.push_back(t);
    state.SetIterationTime(t / 1e3);
  }
  for (const auto& r : launcher.records())
    if (!r.ok()) state.SkipWithError(("launch refused: " + r.describe()).c_str());
  std::sort(ms.begin(), ms.end());
  const double median_ms = ms.empty() ? 0 : ms[ms.size() / 2];
  const double bytes = static_cast<double>(d.moe->bind(p, "fixed")->bytes_moved());
  state.counters["bytes"] = bytes;
  state.counters["GBps_median"] = median_ms > 0 ? bytes / (median_ms * 1e6) : 0;
  state.counters["ms_median"] = median_ms;
  const DistinctExperts used = distinct_experts(d, gguf::moe_shape_from(p));
  state.counters["distinct_experts"] = static_cast<double>(used.experts);
  state.counters["distinct_expert_bytes"] = used.bytes;
  state.counters["distinct_expert_GBps"] = median_ms > 0 ? used.bytes / (median_ms * 1e6) : 0;
  if (const auto kernel_ms = median_kernel_ms(d, call, std::max<int>(5, static_cast<int>(ms.size() / 2)))) {
    state.counters["kernel_us_median"] = *kernel_ms * 1e3;
    state.counters["distinct_expert_GBps_kernel"] = *kernel_ms > 0 ? used.bytes / (*kernel_ms * 1e6) : 0;
  }
}

// The device with the buffers of `quant` at state.range(0) tokens current, or nullptr (and the
// benchmark skipped) without a GPU.
BenchDevice* device_with_shape(benchmark::State& state, const std::string& quant, Params& p) {
  if (device::device_count() == 0) {
    state.SkipWithError("no CUDA device");
    return nullptr;
  }
  BenchDevice& d = bench_device();
  p = gemma_params(*d.moe, quant, state.range(0));
  use_shape(d, p, *d.moe, "fixed");
  return &d;
}

void BM_MoeVec(benchmark::State& state, std::string quant, std::string variant) {
  Params p;
  BenchDevice* dp = device_with_shape(state, quant, p);
  if (dp == nullptr) return;
  BenchDevice& d = *dp;
  device::Launcher launcher;
  const auto bound = d.moe->bind(p, variant);
  time_calls(state, d, p, launcher, [&] { bound->launch(d.limits, *d.bufs, launcher, d.stream.get()); });
}

// Issue #33's decode shapes: `kernel` is "gguf" (ours, `variant` fixed or by_expert) or "vllm"
// (vllm.moe_vec, variant upstream); q4_0, 128 experts, top_k 8, f32.
void BM_MoeVecDecode(benchmark::State& state, std::string kernel, std::string variant, std::uint64_t rows,
                     std::uint64_t cols) {
  if (device::device_count() == 0) {
    state.SkipWithError("no CUDA device");
    return;
  }
  BenchDevice& d = bench_device();
  const Kernel* k = d.moe.get();
#ifdef GRIDFUZZ_HAS_VLLM
  if (kernel == "vllm") k = d.vllm_moe.get();
#endif
  if (kernel == "vllm" && k == d.moe.get()) {
    state.SkipWithError("built without vLLM's kernels (GRIDFUZZ_HAS_VLLM)");
    return;
  }
  Params p = Params::defaults(k->axes());
  p.set("rows", std::to_string(rows));
  p.set("cols", std::to_string(cols));
  p.set("experts", "128");
  p.set("top_k", "8");
  p.set("quant", "q4_0");
  p.set("tokens", std::to_string(state.range(0)));
  use_shape(d, p, *k, variant);
  device::Launcher launcher;
  const auto bound = k->bind(p, variant);
  time_calls(state, d, p, launcher, [&] { bound->launch(d.limits, *d.bufs, launcher, d.stream.get()); });
}

// The `fixed` call with its moe_vec forced onto the 64-bit gemv_tiled instantiation, which
// production picks only past 2^32 (too large for these shapes): its speed, and a bit-for-bit check
// against the 32-bit kernel's output (dst poisoned in between, so an unwritten element shows).
void BM_MoeVecIdx64(benchmark::State& state, std::string quant) {
  Params p;
  BenchDevice* dp = device_with_shape(state, quant, p);
  if (dp == nullptr) return;
  BenchDevice& d = *dp;
  const GuardedBuffers& b = *d.bufs;
  const std::size_t kX = b.index_of("x"), kWeights = b.index_of("weights"), kIds = b.index_of("expert_ids"),
                    kQ8 = b.index_of("q8_1"), kDst = b.index_of("dst");
  const gguf::MoeCallShape s = gguf::moe_shape_from(p);
  device::Launcher launcher;
  const auto call = [&] {
    gguf::launch_quantize_q8_1(gguf::QuantizeGeometry::tiles_64, b.as<float>(kX), b.as<int>(kQ8), s.activation_rows(),
                               s.cols, d.limits, launcher, d.stream.get(), true);
    gguf::launch_gemv(gguf::GemvGeometry::fixed, s,
                      gguf::gemv_args(s, b.as<std::uint8_t>(kWeights), b.as<int>(kQ8), reinterpret_cast<void*>(b.ptr(kDst)),
                                      b.as<int>(kIds)),
                      d.limits, launcher, d.stream.get(), true, gguf::GemvIndexWidth::bits64);
  };
  std::vector<std::uint8_t> narrow(b.bytes(kDst)), wide(b.bytes(kDst));
  d.moe->bind(p, "fixed")->launch(d.limits, b, launcher, d.stream.get());  // the 32-bit kernel
  d.stream.synchronize();
  b.read(kDst, 0, narrow.data(), narrow.size());
  cudaMemsetAsync(reinterpret_cast<void*>(b.ptr(kDst)), 0xFF, b.bytes(kDst), reinterpret_cast<cudaStream_t>(d.stream.get()));
  time_calls(state, d, p, launcher, call);
  d.stream.synchronize();
  b.read(kDst, 0, wide.data(), wide.size());
  std::uint64_t differing = 0;
  for (std::size_t i = 0; i < narrow.size(); ++i) differing += narrow[i] != wide[i];
  state.counters["bytes_differing_from_idx32"] = static_cast<double>(differing);
  if (differing != 0) state.SkipWithError("the 64-bit kernel's dst differs from the 32-bit kernel's");
}

// Device-to-device copy of 1 GiB: read + write bytes over time, the achievable bandwidth.
void BM_CopyD2D(benchmark::State& state) {
  if (device::device_count() == 0) {
    state.SkipWithError("no CUDA device");
    return;
  }
  BenchDevice& d = bench_device();
  d.bufs.reset();  // free the last moe_vec shape first
  d.shape_key.clear();
  const std::size_t bytes = std::size_t{1} << 30;
  device::DeviceBuffer a(bytes), b(bytes);
  a.fill_words(7);
  device::Event start, stop;
  auto stream = reinterpret_cast<cudaStream_t>(d.stream.get());
  std::vector<double> ms;
  for (auto _ : state) {
    start.record(d.stream.get());
    cudaMemcpyAsync(b.as<void>(), a.as<void>(), bytes, cudaMemcpyDeviceToDevice, stream);
    stop.record(d.stream.get());
    stop.synchronize();
    const double t = stop.elapsed_ms_since(start);
    ms.push_back(t);
    state.SetIterationTime(t / 1e3);
  }
  std::sort(ms.begin(), ms.end());
  const double median_ms = ms.empty() ? 0 : ms[ms.size() / 2];
  state.counters["bytes"] = 2.0 * bytes;
  state.counters["GBps_median"] = median_ms > 0 ? 2.0 * bytes / (median_ms * 1e6) : 0;
}

const bool registered = [] {
  benchmark::RegisterBenchmark("copy_d2d_1GiB", BM_CopyD2D)->UseManualTime()->Iterations(20)->Unit(benchmark::kMillisecond);
  for (const char* quant : {"q4_0", "q4_K", "q8_0"})
    for (const std::int64_t tokens : {1, 8, 16, 32, 64, 2048, 4096, 8191})
      for (const char* variant : {"legacy", "fixed", "zchunk", "rows_x", "pairs_x", "by_expert"})
        benchmark::RegisterBenchmark((std::string("moe_vec/") + quant + "/" + variant).c_str(), BM_MoeVec,
                                     std::string(quant), std::string(variant))
            ->Arg(tokens)
            ->ArgName("tokens")
            ->UseManualTime()
            ->Iterations(tokens >= 2048 ? 10 : 30)
            ->Unit(benchmark::kMicrosecond);
  struct DecodeShape {
    const char* name;
    std::uint64_t rows, cols;
  };
  // Per shape and token count, the three kernels back to back (ours on the same buffers).
  for (const DecodeShape& shape : {DecodeShape{"gemma4_gate_up", 1408, 2816}, DecodeShape{"qwen3_235b_gate_up", 3072, 4096},
                                   DecodeShape{"qwen3_235b_4096x1536", 4096, 1536}})
    for (const std::int64_t tokens : {1, 8, 16, 32, 64})
      for (const auto& [kernel, variant] : {std::pair{"gguf", "fixed"}, {"gguf", "by_expert"}, {"vllm", "upstream"}})
        benchmark::RegisterBenchmark(
            (std::string("moe_vec_decode/") + shape.name + "/q4_0/" + kernel + "." + variant).c_str(), BM_MoeVecDecode,
            std::string(kernel), std::string(variant), shape.rows, shape.cols)
            ->Arg(tokens)
            ->ArgName("tokens")
            ->UseManualTime()
            ->Iterations(50)
            ->Unit(benchmark::kMicrosecond);
  for (const char* quant : {"q4_0", "q4_K", "q8_0"})
    for (const std::int64_t tokens : {1, 64, 2048})
      benchmark::RegisterBenchmark((std::string("moe_vec/") + quant + "/fixed_idx64").c_str(), BM_MoeVecIdx64,
                                   std::string(quant))
          ->Arg(tokens)
          ->ArgName("tokens")
          ->UseManualTime()
          ->Iterations(tokens >= 2048 ? 10 : 30)
          ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("copy_d2d_1GiB_end", BM_CopyD2D)->UseManualTime()->Iterations(20)->Unit(benchmark::kMillisecond);
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
