// Issue 16, item 7: one dense quantized matmul out[M, N] = x[M, K] * dequant(w[N, K])^T, bf16
// activations, 4-bit weights, group 64, timed four ways in one run, shape by shape:
//   mlx.qmm/upstream   MLX's kernels as MLX's own host code dispatches them (qmv for M < 8,
//                      qmm_sm80 otherwise at these shapes; docs/upstream/mlx.md)
//   affine.qmm/fixed   gridfuzz's affine qmv/qmm with MLX's geometry (kernels/affine)
//   affine.qmm/hopper  gridfuzz's fastest path: qmv_stream at M 1, qmm_small at 2-64 tokens,
//                      CUTLASS sm90 above (issue #33 item 3: no slower than MLX's from M 1 to 512)
//   cublas_bf16        cuBLAS bf16 GEMM on the same weights dequantized to bf16 (dequantization
//                      not timed)
// at M 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 8192 and (N, K) (4096, 4096), (14336, 4096),
// (128256, 4096).
//
// What one sample times: the device time of one call's kernels. Before every sample the L2 is
// flushed by a memset of 4x its size; the start event is recorded after the memset, then the host
// enqueues the call, then the stop event. While the memset runs the host enqueues the call, so
// the window holds the kernels only as long as the host's enqueue time (counter host_us) is below
// the flush's time (flush_us); covered = the fraction of samples where it was. Counters, over a
// fixed number of samples (iterations; 30, 10 at M = 8192): median_us, min_us, max_us; TFLOP/s = 2*M*N*K / median;
// weight_GB/s = bytes of packed weights + scales + biases / median (what M = 1 has to read).
#include <benchmark/benchmark.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "gridfuzz/affine/device_ops.hpp"
#include "gridfuzz/affine/register.hpp"
#include "gridfuzz/device/context.hpp"
#include "gridfuzz/device/device.hpp"
#include "gridfuzz/device/device_buffer.hpp"
#include "gridfuzz/device/event.hpp"
#include "gridfuzz/device/launcher.hpp"
#include "gridfuzz/device/stream.hpp"
#include "gridfuzz/engine/guarded_buffers.hpp"
#include "gridfuzz/mlx/register.hpp"

namespace gridfuzz {
namespace {

// Samples per benchmark: 30, or 10 at M >= 4096, where one sample takes milliseconds.
constexpr int kSamples = 30;
constexpr int kSamplesLargeM = 10;
constexpr int kWarmup = 3;
constexpr int kBits = 4;
constexpr int kGroupSize = 64;
// The dense buffers of affine.qmm and mlx.qmm (AffineMatmulKernel): x, w, scales, biases, out.
constexpr std::size_t kX = 0, kW = 1, kScales = 2, kBiases = 3, kOut = 4;

struct DeviceSession {
  DeviceSession() : ctx(0), limits(device::query_limits(0)) {
    int l2 = 0;
    if (cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0) != cudaSuccess || l2 <= 0)
      throw std::runtime_error("cudaDeviceGetAttribute(cudaDevAttrL2CacheSize, device 0) failed");
    flush_buffer = device::DeviceBuffer(4 * static_cast<std::size_t>(l2));
  }
  device::PrimaryContext ctx;
  DeviceLimits limits;
  device::Stream stream;
  device::DeviceBuffer flush_buffer;

  cudaStream_t cuda_stream() const { return reinterpret_cast<cudaStream_t>(stream.get()); }
  void flush_l2() const {
    const cudaError_t rc = cudaMemsetAsync(flush_buffer.as<void>(), 0, flush_buffer.bytes(), cuda_stream());
    if (rc != cudaSuccess)
      throw std::runtime_error(std::string("L2 flush: cudaMemsetAsync of ") + std::to_string(flush_buffer.bytes()) +
                               " bytes failed: " + cudaGetErrorString(rc));
  }
};

DeviceSession& session() {
  static DeviceSession s;
  return s;
}

struct Shape {
  std::int64_t m, n, k;
};

// The one place that calls Kernel methods: the case bound once, buffers with the adapter's random inputs
// (seed 1), and one production call enqueued on the session stream.
class KernelCall {
 public:
  KernelCall(std::shared_ptr<const Kernel> kernel, const Shape& s, std::string variant)
      : session_(session()), kernel_(std::move(kernel)), bound_(kernel_->bind(params_of(*kernel_, s), variant)),
        bufs_(bound_->buffers()) {
    bound_->fill_inputs(1, bufs_, session_.stream.get());
  }
  void enqueue() {
    launcher_.clear();
    bound_->launch(session_.limits, bufs_, launcher_, session_.stream.get());
  }
  // The launches of the last call ("name grid=(..) block=(..) smem=N"), and the first refused one.
  std::string launches() const {
    std::string s;
    for (const auto& r : launcher_.records()) s += (s.empty() ? "" : "; ") + describe(r.spec);
    return s;
  }
  std::string refused() const {
    for (const auto& r : launcher_.records())
      if (!r.ok()) return r.describe();
    return {};
  }
  const GuardedBuffers& buffers() const { return bufs_; }

 private:
  static Params params_of(const Kernel& k, const Shape& s) {
    Params p = Params::defaults(k.axes());
    p.set("tokens", std::to_string(s.m));
    p.set("vocab", std::to_string(s.n));
    p.set("cols", std::to_string(s.k));
    p.set("bits", std::to_string(kBits));
    p.set("group_size", std::to_string(kGroupSize));
    p.set("dtype", "bf16");
    return p;
  }
  DeviceSession& session_;  // first: the context must exist before the buffers are allocated
  std::shared_ptr<const Kernel> kernel_;
  std::unique_ptr<BoundCase> bound_;
  GuardedBuffers bufs_;
  device::Launcher launcher_;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : (v[h - 1] + v[h]) / 2;
}

// Times `call` kSamples times (see the top of the file) and sets the counters.
template <class F>
void time_samples(benchmark::State& state, const Shape& s, double weight_bytes, F&& call) {
  DeviceSession& d = session();
  device::Event before_flush, start, stop;
  for (int i = 0; i < kWarmup; ++i) call();
  d.stream.synchronize();
  std::vector<double> device_us, host_us, flush_us;
  for (auto _ : state) {
    before_flush.record(d.stream.get());
    d.flush_l2();
    start.record(d.stream.get());
    const auto t0 = std::chrono::steady_clock::now();
    call();
    const auto t1 = std::chrono::steady_clock::now();
    stop.record(d.stream.get());
    stop.synchronize();
    const double us = 1e3 * stop.elapsed_ms_since(start);
    state.SetIterationTime(us / 1e6);
    device_us.push_back(us);
    host_us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    flush_us.push_back(1e3 * start.elapsed_ms_since(before_flush));
  }
  std::size_t covered = 0;
  for (std::size_t i = 0; i < device_us.size(); ++i) covered += host_us[i] < flush_us[i] ? 1 : 0;
  const double med = median(device_us);
  state.counters["median_us"] = med;
  state.counters["min_us"] = *std::min_element(device_us.begin(), device_us.end());
  state.counters["max_us"] = *std::max_element(device_us.begin(), device_us.end());
  state.counters["host_us"] = median(host_us);
  state.counters["flush_us"] = median(flush_us);
  state.counters["covered"] = static_cast<double>(covered) / static_cast<double>(device_us.size());
  state.counters["TFLOP/s"] = 2.0 * static_cast<double>(s.m) * static_cast<double>(s.n) * static_cast<double>(s.k) /
                              (med * 1e-6) / 1e12;
  state.counters["weight_GB/s"] = weight_bytes / (med * 1e-6) / 1e9;
}

double weight_bytes(const GuardedBuffers& b) {
  return static_cast<double>(b.bytes(kW) + b.bytes(kScales) + b.bytes(kBiases));
}

// One gridfuzz kernel (mlx.qmm upstream, affine.qmm fixed or hopper); the label names the launches.
void BM_kernel(benchmark::State& state, std::shared_ptr<const Kernel> kernel, std::string variant, Shape s) {
  KernelCall call(std::move(kernel), s, std::move(variant));
  time_samples(state, s, weight_bytes(call.buffers()), [&] { call.enqueue(); });
  if (const std::string r = call.refused(); !r.empty()) state.SkipWithError(("launch refused: " + r).c_str());
  state.SetLabel(call.launches());
}

// cuBLAS bf16 GEMM out[M, N] = x[M, K] * W[N, K]^T on the affine buffers' weights, dequantized by
// gridfuzz's dequantize kernel (the same generator and seed as the two kernels' inputs).
void BM_cublas_bf16(benchmark::State& state, Shape s) {
  DeviceSession& d = session();
  KernelCall call(affine::make_dense_qmm_kernel(), s, "fixed");
  const GuardedBuffers& bufs = call.buffers();
  device::DeviceBuffer w16(static_cast<std::size_t>(s.n * s.k * 2));
  affine::dequantize_weights(bufs.ptr(kW), bufs.ptr(kScales), bufs.ptr(kBiases), w16.get(), s.n, s.k, kBits,
                             kGroupSize, affine::Dtype::bfloat16, d.stream.get());
  cublasHandle_t handle = nullptr;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) {
    state.SkipWithError("cublasCreate failed");
    return;
  }
  std::unique_ptr<cublasContext, decltype(&cublasDestroy)> guard(handle, &cublasDestroy);
  if (cublasSetStream(handle, d.cuda_stream()) != CUBLAS_STATUS_SUCCESS) {
    state.SkipWithError("cublasSetStream failed");
    return;
  }
  const float alpha = 1.f, beta = 0.f;
  const auto at = [&](std::size_t i) { return reinterpret_cast<void*>(static_cast<std::uintptr_t>(bufs.ptr(i))); };
  cublasStatus_t status = CUBLAS_STATUS_SUCCESS;
  // Column-major view: out^T [N, M] = W [N, K] (stored K x N, transposed) * x^T [K, M].
  time_samples(state, s, weight_bytes(bufs), [&] {
    const cublasStatus_t rc =
        cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, static_cast<int>(s.n), static_cast<int>(s.m),
                     static_cast<int>(s.k), &alpha, w16.as<void>(), CUDA_R_16BF, static_cast<int>(s.k), at(kX),
                     CUDA_R_16BF, static_cast<int>(s.k), &beta, at(kOut), CUDA_R_16BF, static_cast<int>(s.n),
                     CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    if (rc != CUBLAS_STATUS_SUCCESS) status = rc;
  });
  if (status != CUBLAS_STATUS_SUCCESS)
    state.SkipWithError(("cublasGemmEx failed: M=" + std::to_string(s.m) + " N=" + std::to_string(s.n) +
                         " K=" + std::to_string(s.k) + " status " + std::to_string(static_cast<int>(status)))
                            .c_str());
  state.SetLabel("cublasGemmEx bf16 (weights 4-bit g64 dequantized to bf16; W in bf16: " +
                 std::to_string(s.n * s.k * 2) + " bytes)");
}

// Shape by shape, the four side by side.
void register_side_by_side() {
  const std::array<std::int64_t, 11> tokens{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 8192};
  const std::array<std::array<std::int64_t, 2>, 3> nk{{{4096, 4096}, {14336, 4096}, {128256, 4096}}};
  for (const std::int64_t m : tokens) {
    for (const auto& [n, k] : nk) {
      const Shape s{m, n, k};
      const std::string suffix = "/M:" + std::to_string(m) + "/N:" + std::to_string(n) + "/K:" + std::to_string(k);
      const auto add = [m](benchmark::internal::Benchmark* b) {
        b->Iterations(m >= 4096 ? kSamplesLargeM : kSamples)->UseManualTime()->Unit(benchmark::kMicrosecond);
      };
      add(benchmark::RegisterBenchmark(("mlx.qmm/upstream" + suffix).c_str(), BM_kernel, mlx::make_dense_qmm_kernel(),
                                       std::string("upstream"), s));
      add(benchmark::RegisterBenchmark(("affine.qmm/fixed" + suffix).c_str(), BM_kernel,
                                       affine::make_dense_qmm_kernel(), std::string("fixed"), s));
      add(benchmark::RegisterBenchmark(("affine.qmm/hopper" + suffix).c_str(), BM_kernel,
                                       affine::make_dense_qmm_kernel(), std::string("hopper"), s));
      add(benchmark::RegisterBenchmark(("cublas_bf16" + suffix).c_str(), BM_cublas_bf16, s));
    }
  }
}

}  // namespace
}  // namespace gridfuzz

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (gridfuzz::device::device_count() == 0) {
    std::fprintf(stderr, "no CUDA device: nothing to measure\n");
    return 0;
  }
  const gridfuzz::DeviceLimits limits = gridfuzz::device::query_limits(0);
  benchmark::AddCustomContext("device", limits.name);
  benchmark::AddCustomContext("driver", gridfuzz::device::driver_version());
  gridfuzz::session();  // the primary context, the stream and the L2 flush buffer, before any buffer
  gridfuzz::register_side_by_side();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
