// Speed of the affine kernels on the device they run on, timed with CUDA events (manual time):
//   qmm   M 8192, (N, K) = (4096, 4096) and (14336, 4096), bf16 activations, 4-bit, group 64,
//         fixed and legacy (both legal here) on the mma.sync kernel, hopper (CUTLASS's sm90 mixed-input
//         GEMM on an sm_90 device; the label names the kernel that ran), beside cuBLAS bf16 GEMM on
//         the dequantized weights;
//   qmv   M 1 (and 4, 7 at the LM head) on the same weights, as bytes of weights read per second,
//         beside a read-only kernel over the same number of bytes (read_only_kernel.cuh): fixed and
//         legacy (MLX's qmv), hopper
//         (qmv_stream at kQmvStreamBlocksPerSm), and qmv_stream at 1 to 3 blocks per SM (more do not
//         fit an H200 SM's shared memory; the plan would lower them to 3).
//   small M (issue #33 item 3)  M in {1, 2, 4, ..., 512} at (N, K) = (14336, 4096) and the LM head
//         (128256, 4096), bf16, 4-bit, group 64: hopper (qmm_small at 2-64 tokens), fixed and
//         cuBLAS bf16 side by side in one process, each sample one call after an L2 flush
//         (BM_small_m_*; MLX's kernels are timed by bench/mlx, not here); BM_qmm_small_parts: the
//         small-M kernel with 2 and 4 K parts at 2-32 tokens.
//   hopper configurations (issue #33 item 1; built with -DGRIDFUZZ_HOPPER_CONFIGS=ON only): the
//         hopper GEMM with other tiles and schedules (hopper_configs.hpp) at the qmm shapes, on
//         the hopper case's buffers, beside the production one (BM_affine_dense/hopper); and the
//         production path beside the narrow tile alone where the plan's token tile changes.
// Counters: bytes (per call), GB/s (bytes/time), TFLOP/s (2*M*N*K/time).
#include <benchmark/benchmark.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "gridfuzz/affine/device_ops.hpp"
#include "gridfuzz/affine/qmm_small_plan.hpp"
#include "gridfuzz/affine/qmv_stream_plan.hpp"
#include "gridfuzz/affine/register.hpp"
#include "gridfuzz/device/context.hpp"
#include "gridfuzz/device/device.hpp"
#include "gridfuzz/device/device_buffer.hpp"
#include "gridfuzz/device/event.hpp"
#include "gridfuzz/device/stream.hpp"
#include "gridfuzz/engine/guarded_buffers.hpp"
#include "read_only_kernel.cuh"
#if GRIDFUZZ_HOPPER_CONFIGS
#include "hopper_configs.hpp"
#endif

namespace gridfuzz::affine {
namespace {

struct DeviceSession {
  DeviceSession() : ctx(0), limits(device::query_limits(0)) {}
  device::PrimaryContext ctx;
  DeviceLimits limits;
  device::Stream stream;
};

DeviceSession& session() {
  static DeviceSession s;
  return s;
}

Params dense_params(const Kernel& k, std::int64_t m, std::int64_t n, std::int64_t kk) {
  Params p = Params::defaults(k.axes());
  p.set("tokens", std::to_string(m));
  p.set("vocab", std::to_string(n));
  p.set("cols", std::to_string(kk));
  p.set("bits", "4");
  p.set("group_size", "64");
  p.set("dtype", "bf16");
  return p;
}

// Times `call` (enqueued on the session stream) with CUDA events, one sample per iteration.
template <class F>
void time_with_events(benchmark::State& state, F&& call) {
  DeviceSession& s = session();
  device::Event start, stop;
  for (int i = 0; i < 3; ++i) call();  // warm-up
  s.stream.synchronize();
  for (auto _ : state) {
    start.record(s.stream.get());
    call();
    stop.record(s.stream.get());
    stop.synchronize();
    state.SetIterationTime(stop.elapsed_ms_since(start) / 1e3);
  }
}

// The device's L2, four times over: a cudaMemsetAsync of it before a sample evicts the previous
// call's weights (the LM head's 296 MB do not fit the L2 anyway; 14336 x 4096's 33 MB would).
device::DeviceBuffer& l2_flush_buffer() {
  static device::DeviceBuffer b = [] {
    int l2 = 0;
    if (cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0) != cudaSuccess || l2 <= 0) l2 = 64 << 20;
    return device::DeviceBuffer(static_cast<std::size_t>(l2) * 4);
  }();
  return b;
}

// As time_with_events, with the L2 flushed before each sample (outside the timed interval).
template <class F>
void time_flushed(benchmark::State& state, F&& call) {
  DeviceSession& s = session();
  device::Event start, stop;
  device::DeviceBuffer& flush = l2_flush_buffer();
  const auto stream = reinterpret_cast<cudaStream_t>(s.stream.get());
  for (int i = 0; i < 3; ++i) call();  // warm-up
  s.stream.synchronize();
  for (auto _ : state) {
    if (cudaMemsetAsync(flush.as<void>(), static_cast<int>(state.iterations() & 0xff), flush.bytes(), stream) != cudaSuccess) {
      state.SkipWithError("cudaMemsetAsync of the L2 flush buffer failed");
      break;
    }
    start.record(s.stream.get());
    call();
    stop.record(s.stream.get());
    stop.synchronize();
    state.SetIterationTime(stop.elapsed_ms_since(start) / 1e3);
  }
}

void set_counters(benchmark::State& state, double bytes, double flops) {
  state.counters["bytes"] = bytes;
  state.counters["GB/s"] = benchmark::Counter(bytes, benchmark::Counter::kIsIterationInvariantRate);
  if (flops > 0) state.counters["TFLOP/s"] = benchmark::Counter(flops / 1e12, benchmark::Counter::kIsIterationInvariantRate);
}

// A dense case's buffers (x, w, scales, biases, out: the kernel's buffer order) as a planned
// launch takes them.
MatmulBuffers matmul_buffers(const GuardedBuffers& bufs) {
  MatmulBuffers b;
  b.x = bufs.ptr(0);
  b.w = bufs.ptr(1);
  b.scales = bufs.ptr(2);
  b.biases = bufs.ptr(3);
  b.out = bufs.ptr(4);
  return b;
}

// One dense affine call (variant fixed or legacy) on guarded buffers filled with random inputs.
void BM_affine_dense(benchmark::State& state, const char* variant) {
  DeviceSession& s = session();
  const auto kernel = make_dense_qmm_kernel();
  const std::int64_t m = state.range(0), n = state.range(1), k = state.range(2);
  const Params p = dense_params(*kernel, m, n, k);
  const auto bound = kernel->bind(p, variant);
  GuardedBuffers bufs(bound->buffers());
  bound->fill_inputs(1, bufs, s.stream.get());
  device::Launcher launcher;
  time_with_events(state, [&] {
    launcher.clear();
    bound->launch(s.limits, bufs, launcher, s.stream.get());
  });
  for (const auto& r : launcher.records())
    if (!r.ok()) state.SkipWithError(("launch refused: " + r.describe()).c_str());
  const double weight_bytes = static_cast<double>(bufs.bytes(1) + bufs.bytes(2) + bufs.bytes(3));
  // qmv is bandwidth-bound on the weights: report their bytes; qmm: everything it touches.
  set_counters(state, m == 1 ? weight_bytes : static_cast<double>(bound->bytes_moved()), 2.0 * m * n * k);
  if (std::string(variant) == "hopper" && !launcher.records().empty())
    state.SetLabel(launcher.records().front().spec.name);
  else
    state.SetLabel(m * 1 < 8 ? "qmv" : "qmm");
}

// qmv_stream's launches at state.range(3) blocks per SM (the production plan uses
// kQmvStreamBlocksPerSm), on the fixed case's buffers, as bytes of weights read per second.
void BM_qmv_stream(benchmark::State& state) {
  DeviceSession& s = session();
  const auto kernel = make_dense_qmm_kernel();
  const std::int64_t n = state.range(1), k = state.range(2);
  const auto bound = kernel->bind(dense_params(*kernel, 1, n, k), "fixed");
  GuardedBuffers bufs(bound->buffers());
  bound->fill_inputs(1, bufs, s.stream.get());
  MatmulShape shape;
  shape.m = 1;
  shape.n = static_cast<std::uint64_t>(n);
  shape.k = static_cast<std::uint64_t>(k);
  const AffinePlan plan = plan_qmv_stream(shape, s.limits, static_cast<std::uint64_t>(state.range(3)));
  const MatmulBuffers b = matmul_buffers(bufs);
  device::Launcher launcher;
  time_with_events(state, [&] {
    launcher.clear();
    for (const AffineLaunch& l : plan.launches) launch_planned(l, shape, b, launcher, s.stream.get(), false);
  });
  for (const auto& r : launcher.records())
    if (!r.ok()) state.SkipWithError(("launch refused: " + r.describe()).c_str());
  set_counters(state, static_cast<double>(bufs.bytes(1) + bufs.bytes(2) + bufs.bytes(3)), 2.0 * n * k);
  state.SetLabel(describe(plan.plan.launches.front()));
}

// One dense call of `variant` at small M, L2 flushed before each sample; the label names the
// kernel that ran (the first launch's spec name). Counters as BM_affine_dense's qmm: every byte the
// call touches, and weight_GB/s: the 4-bit weights, scales and biases per second (the read-once
// bound: the device's read rate).
void BM_small_m(benchmark::State& state, const char* variant) {
  DeviceSession& s = session();
  const auto kernel = make_dense_qmm_kernel();
  const std::int64_t m = state.range(0), n = state.range(1), k = state.range(2);
  const auto bound = kernel->bind(dense_params(*kernel, m, n, k), variant);
  GuardedBuffers bufs(bound->buffers());
  bound->fill_inputs(1, bufs, s.stream.get());
  device::Launcher launcher;
  time_flushed(state, [&] {
    launcher.clear();
    bound->launch(s.limits, bufs, launcher, s.stream.get());
  });
  for (const auto& r : launcher.records())
    if (!r.ok()) state.SkipWithError(("launch refused: " + r.describe()).c_str());
  const double weight_bytes = static_cast<double>(bufs.bytes(1) + bufs.bytes(2) + bufs.bytes(3));
  set_counters(state, static_cast<double>(bound->bytes_moved()), 2.0 * m * n * k);
  state.counters["weight_GB/s"] = benchmark::Counter(weight_bytes, benchmark::Counter::kIsIterationInvariantRate);
  if (!launcher.records().empty()) state.SetLabel(launcher.records().front().spec.name);
}

// qmm_small's launches with state.range(3) K parts (2 or 4; the plan's rule picks one), on the
// fixed case's buffers, L2 flushed: the two geometries side by side.
void BM_qmm_small_parts(benchmark::State& state) {
  DeviceSession& s = session();
  const auto kernel = make_dense_qmm_kernel();
  const std::int64_t m = state.range(0), n = state.range(1), k = state.range(2);
  const auto bound = kernel->bind(dense_params(*kernel, m, n, k), "fixed");
  GuardedBuffers bufs(bound->buffers());
  bound->fill_inputs(1, bufs, s.stream.get());
  MatmulShape shape;
  shape.m = static_cast<std::uint64_t>(m);
  shape.n = static_cast<std::uint64_t>(n);
  shape.k = static_cast<std::uint64_t>(k);
  const AffinePlan plan = plan_qmm_small(shape, s.limits, static_cast<int>(state.range(3)));
  const MatmulBuffers b = matmul_buffers(bufs);
  device::Launcher launcher;
  time_flushed(state, [&] {
    launcher.clear();
    for (const AffineLaunch& l : plan.launches) launch_planned(l, shape, b, launcher, s.stream.get(), false);
  });
  for (const auto& r : launcher.records())
    if (!r.ok()) state.SkipWithError(("launch refused: " + r.describe()).c_str());
  const double weight_bytes = static_cast<double>(bufs.bytes(1) + bufs.bytes(2) + bufs.bytes(3));
  set_counters(state, weight_bytes, 2.0 * m * n * k);
  state.SetLabel(describe(plan.plan.launches.front()));
}

// cuBLAS bf16 GEMM out[M,N] = x[M,K] * W[N,K]^T on weights dequantized by our dequantize kernel;
// BM_cublas_bf16_flushed: the same with the L2 flushed before each sample.
void cublas_bf16(benchmark::State& state, bool flushed) {
  DeviceSession& s = session();
  const auto kernel = make_dense_qmm_kernel();
  const std::int64_t m = state.range(0), n = state.range(1), k = state.range(2);
  const Params p = dense_params(*kernel, m, n, k);
  const auto bound = kernel->bind(p, "fixed");
  GuardedBuffers bufs(bound->buffers());
  bound->fill_inputs(1, bufs, s.stream.get());
  device::DeviceBuffer w16(static_cast<std::size_t>(n * k * 2));
  dequantize_weights(bufs.ptr(1), bufs.ptr(2), bufs.ptr(3), w16.get(), n, k, 4, 64, Dtype::bfloat16, s.stream.get());
  cublasHandle_t handle = nullptr;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) {
    state.SkipWithError("cublasCreate failed");
    return;
  }
  std::unique_ptr<cublasContext, decltype(&cublasDestroy)> guard(handle, &cublasDestroy);
  cublasSetStream(handle, reinterpret_cast<cudaStream_t>(s.stream.get()));
  const float alpha = 1.f, beta = 0.f;
  const void* x = reinterpret_cast<const void*>(static_cast<std::uintptr_t>(bufs.ptr(0)));
  void* out = reinterpret_cast<void*>(static_cast<std::uintptr_t>(bufs.ptr(4)));
  const void* w = reinterpret_cast<const void*>(static_cast<std::uintptr_t>(w16.get()));
  cublasStatus_t status = CUBLAS_STATUS_SUCCESS;
  // Column-major view: out^T [N, M] = W [N, K] (stored K x N, transposed) * x^T [K, M].
  auto gemm = [&] {
    status = cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, static_cast<int>(n), static_cast<int>(m), static_cast<int>(k),
                          &alpha, w, CUDA_R_16BF, static_cast<int>(k), x, CUDA_R_16BF, static_cast<int>(k), &beta, out,
                          CUDA_R_16BF, static_cast<int>(n), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  };
  if (flushed) time_flushed(state, gemm);
  else time_with_events(state, gemm);
  if (status != CUBLAS_STATUS_SUCCESS) state.SkipWithError("cublasGemmEx failed");
  set_counters(state, static_cast<double>(m * k * 2 + n * k * 2 + m * n * 2), 2.0 * m * n * k);
}
void BM_cublas_bf16(benchmark::State& state) { cublas_bf16(state, false); }
void BM_cublas_bf16_flushed(benchmark::State& state) { cublas_bf16(state, true); }

// A read-only kernel over as many bytes as qmv reads from its weights (read_only_kernel.cuh): the
// device's read rate for that size. state.range(3) = blocks per SM (256 threads each); the table
// takes the best configuration as the read limit.
void BM_read_weight_bytes(benchmark::State& state) {
  DeviceSession& s = session();
  const std::int64_t n = state.range(1), k = state.range(2);
  const std::size_t bytes = static_cast<std::size_t>(n * k / 2 + 2 * (n * k / 64) * 2);  // 4-bit + scales + biases
  device::DeviceBuffer src(bytes), sink(16);
  src.fill_bytes(1);
  const auto blocks = static_cast<unsigned>(s.limits.sm_count * static_cast<std::uint64_t>(state.range(3)));
  time_with_events(state, [&] { bench::launch_read_only(src.get(), bytes, sink.get(), blocks, 256, s.stream.get()); });
  set_counters(state, static_cast<double>(bytes), 0);
}

void qmm_shapes(benchmark::internal::Benchmark* b) {
  b->Args({8192, 4096, 4096})->Args({8192, 14336, 4096})->UseManualTime()->Unit(benchmark::kMillisecond);
}
void qmv_shapes(benchmark::internal::Benchmark* b) {
  b->Args({1, 4096, 4096})->Args({1, 14336, 4096})->Args({1, 128256, 4096});
  b->Args({4, 128256, 4096})->Args({7, 128256, 4096});  // qmv's other token counts: each token's blocks read all of W
  b->UseManualTime()->Unit(benchmark::kMicrosecond);
}

BENCHMARK_CAPTURE(BM_affine_dense, fixed, "fixed")->Apply(qmm_shapes);
BENCHMARK_CAPTURE(BM_affine_dense, legacy, "legacy")->Apply(qmm_shapes);
BENCHMARK_CAPTURE(BM_affine_dense, hopper, "hopper")->Apply(qmm_shapes);
BENCHMARK(BM_cublas_bf16)->Apply(qmm_shapes);
BENCHMARK_CAPTURE(BM_affine_dense, fixed, "fixed")->Apply(qmv_shapes);
BENCHMARK_CAPTURE(BM_affine_dense, legacy, "legacy")->Apply(qmv_shapes);
BENCHMARK_CAPTURE(BM_affine_dense, hopper, "hopper")->Apply(qmv_shapes);
void stream_shapes(benchmark::internal::Benchmark* b) {
  for (const std::int64_t n : {4096, 14336, 128256})
    for (const std::int64_t blocks_per_sm : {1, 2, 3}) b->Args({1, n, 4096, blocks_per_sm});
  b->UseManualTime()->Unit(benchmark::kMicrosecond);
}
BENCHMARK(BM_qmv_stream)->Apply(stream_shapes);
void read_shapes(benchmark::internal::Benchmark* b) {
  for (const std::int64_t n : {4096, 14336, 128256})
    for (const std::int64_t blocks_per_sm : {4, 8, 16, 32}) b->Args({1, n, 4096, blocks_per_sm});
  b->UseManualTime()->Unit(benchmark::kMicrosecond);
}
BENCHMARK(BM_read_weight_bytes)->Apply(read_shapes);
// Issue #33 item 3: M 1-512 at both shapes, ours (hopper, fixed) beside cuBLAS bf16, one shape's
// entries next to each other (Google Benchmark runs them in registration order).
void small_m_shapes(benchmark::internal::Benchmark* b, std::int64_t n) {
  for (const std::int64_t m : {1, 2, 4, 8, 16, 32, 64, 128, 256, 512}) b->Args({m, n, 4096});
  b->UseManualTime()->Unit(benchmark::kMicrosecond)->MinTime(0.05);
}
void small_m_14336(benchmark::internal::Benchmark* b) { small_m_shapes(b, 14336); }
void small_m_lm_head(benchmark::internal::Benchmark* b) { small_m_shapes(b, 128256); }
BENCHMARK_CAPTURE(BM_small_m, hopper, "hopper")->Apply(small_m_14336);
BENCHMARK_CAPTURE(BM_small_m, fixed, "fixed")->Apply(small_m_14336);
BENCHMARK(BM_cublas_bf16_flushed)->Apply(small_m_14336);
BENCHMARK_CAPTURE(BM_small_m, hopper, "hopper")->Apply(small_m_lm_head);
BENCHMARK_CAPTURE(BM_small_m, fixed, "fixed")->Apply(small_m_lm_head);
BENCHMARK(BM_cublas_bf16_flushed)->Apply(small_m_lm_head);
void parts_shapes(benchmark::internal::Benchmark* b) {
  for (const std::int64_t n : {14336, 128256})
    for (const std::int64_t m : {2, 8, 16, 32})
      for (const std::int64_t parts : {2, 4}) b->Args({m, n, 4096, parts});
  b->UseManualTime()->Unit(benchmark::kMicrosecond)->MinTime(0.05);
}
BENCHMARK(BM_qmm_small_parts)->Apply(parts_shapes);

#if GRIDFUZZ_HOPPER_CONFIGS
// One configuration of the hopper GEMM (hopper_configs.hpp) on the hopper case's buffers: x, w,
// scales, biases, out, then the N-major scales and biases (hopper_qmm_case.cpp).
void BM_hopper_config(benchmark::State& state, const std::string& name) {
  DeviceSession& s = session();
  const auto kernel = make_dense_qmm_kernel();
  const std::int64_t m = state.range(0), n = state.range(1), k = state.range(2);
  const auto bound = kernel->bind(dense_params(*kernel, m, n, k), "hopper");
  GuardedBuffers bufs(bound->buffers());
  bound->fill_inputs(1, bufs, s.stream.get());
  const auto ptr = [&](std::size_t i) { return reinterpret_cast<void*>(static_cast<std::uintptr_t>(bufs.ptr(i))); };
  HopperQmmArgs a;
  a.x = ptr(0);
  a.w = ptr(1);
  a.out = ptr(4);
  a.scales_mn = ptr(5);
  a.biases_mn = ptr(6);
  a.tokens = m;
  a.n = n;
  a.k = k;
  a.group_size = 64;
  a.sm_count = s.limits.sm_count;
  try {
    time_with_events(state, [&] { bench::launch_hopper_config(name, a, s.stream.get()); });
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  set_counters(state, static_cast<double>(bound->bytes_moved()), 2.0 * m * n * k);
  state.SetLabel(name);
}
// Where the plan's token tile changes (hopper_plan.hpp, kHopperWideMinTokens): the production path
// beside the narrow tile alone, 128 to 2048 tokens at 14336 x 4096.
void tile_rule_shapes(benchmark::internal::Benchmark* b) {
  for (const std::int64_t m : {128, 129, 256, 512, 1024, 2048}) b->Args({m, 14336, 4096});
  b->UseManualTime()->Unit(benchmark::kMicrosecond);
}
const bool hopper_configs_registered = [] {
  for (const std::string& name : bench::hopper_config_names())
    benchmark::RegisterBenchmark(("BM_hopper_config/" + name).c_str(), BM_hopper_config, name)->Apply(qmm_shapes);
  benchmark::RegisterBenchmark("BM_affine_dense/hopper", BM_affine_dense, "hopper")->Apply(tile_rule_shapes);
  benchmark::RegisterBenchmark("BM_hopper_config/coop_128x128x64", BM_hopper_config, std::string("coop_128x128x64"))
      ->Apply(tile_rule_shapes);
  return true;
}();
#endif

}  // namespace
}  // namespace gridfuzz::affine

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (gridfuzz::device::device_count() == 0) {
    std::fprintf(stderr, "no CUDA device: nothing to measure\n");
    return 0;
  }
  gridfuzz::DeviceLimits limits = gridfuzz::device::query_limits(0);
  benchmark::AddCustomContext("device", limits.name);
  benchmark::AddCustomContext("driver", gridfuzz::device::driver_version());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
