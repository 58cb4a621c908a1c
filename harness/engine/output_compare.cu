#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstring>

#include "gridfuzz/device/cuda_error.hpp"
#include "gridfuzz/device/device_buffer.hpp"
#include "gridfuzz/device/driver_api.hpp"
#include "gridfuzz/engine/guarded_buffers.hpp"
#include "gridfuzz/engine/output_compare.hpp"

namespace gridfuzz {
namespace {

struct DeviceStats {
  unsigned long long mismatches;
  unsigned long long first_mismatch;
  unsigned long long max_abs_err_bits;  // bits of a non-negative double: ordered like the value
};

__device__ std::uint32_t load_bits(const void* p, std::uint64_t i, int bytes) {
  if (bytes == 4) return static_cast<const std::uint32_t*>(p)[i];
  if (bytes == 2) return static_cast<const std::uint16_t*>(p)[i];
  return static_cast<const std::uint8_t*>(p)[i];
}

__device__ double to_double(int type, std::uint32_t bits) {
  switch (type) {
    case static_cast<int>(ElementType::f32): return static_cast<double>(__uint_as_float(bits));
    case static_cast<int>(ElementType::f16): return static_cast<double>(__half2float(__ushort_as_half(static_cast<unsigned short>(bits))));
    case static_cast<int>(ElementType::bf16): return static_cast<double>(__uint_as_float(bits << 16));
    case static_cast<int>(ElementType::i32): return static_cast<double>(static_cast<int>(bits));
    default: return static_cast<double>(bits);
  }
}

// Each thread keeps its own count, first index and largest error, and each warp adds them to the
// totals once: a failing call differs almost everywhere, and an atomic per differing element
// (billions on three addresses) ran the comparison at a few GB/s.
__global__ void compare_kernel(const void* got, const void* want, std::uint64_t n, int type, int bytes, bool exact,
                               double rel_tol, double abs_tol, DeviceStats* stats) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  unsigned long long mismatches = 0, first = ~0ull;
  double max_err = 0;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const std::uint32_t a = load_bits(got, i, bytes), b = load_bits(want, i, bytes);
    if (a == b) continue;
    const double x = to_double(type, a), y = to_double(type, b);
    const double err = fabs(x - y);
    const bool finite = isfinite(x) && isfinite(y);
    const bool bad = exact || !finite || err > abs_tol + rel_tol * fabs(y);
    if (finite) max_err = fmax(max_err, err);
    if (bad) {
      ++mismatches;
      if (first == ~0ull) first = i;  // a thread's indices only grow
    }
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    mismatches += __shfl_down_sync(0xffffffffu, mismatches, offset);
    first = min(first, __shfl_down_sync(0xffffffffu, first, offset));
    max_err = fmax(max_err, __shfl_down_sync(0xffffffffu, max_err, offset));
  }
  if ((threadIdx.x & 31) != 0) return;
  if (mismatches) {
    atomicAdd(&stats->mismatches, mismatches);
    atomicMin(&stats->first_mismatch, first);
  }
  if (max_err > 0) atomicMax(&stats->max_abs_err_bits, static_cast<unsigned long long>(__double_as_longlong(max_err)));
}

__global__ void poison_kernel(const void* data, std::uint64_t n, int bytes, std::uint32_t pattern,
                              unsigned long long* count) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  unsigned long long local = 0;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    local += load_bits(data, i, bytes) == pattern;
  if (local) atomicAdd(count, local);
}

// A grid-stride launch: enough blocks to fill the GPU, never more than the x limit.
LaunchSpec stride_launch(const char* name, std::uint64_t n) {
  LaunchSpec s;
  s.name = name;
  s.block = {256, 1, 1};
  const std::uint64_t blocks = (n + 255) / 256;
  s.grid = {blocks == 0 ? 1 : (blocks < 132 * 16 ? blocks : 132 * 16), 1, 1};
  return s;
}

}  // namespace

double element_to_double(ElementType type, std::uint32_t bits) {
  switch (type) {
    case ElementType::f32: { float f; std::memcpy(&f, &bits, 4); return f; }
    case ElementType::f16: return static_cast<double>(__half2float(__ushort_as_half(static_cast<unsigned short>(bits))));
    case ElementType::bf16: { const std::uint32_t w = bits << 16; float f; std::memcpy(&f, &w, 4); return f; }
    case ElementType::i32: return static_cast<double>(static_cast<std::int32_t>(bits));
    default: return static_cast<double>(bits);
  }
}

CompareStats compare_outputs(ElementType type, CUdeviceptr got, CUdeviceptr want, std::uint64_t n,
                             const ComparePolicy& policy, device::Launcher& launcher, CUstream stream) {
  device::DeviceBuffer stats_buf(sizeof(DeviceStats));
  DeviceStats init{0, ~0ull, 0};
  stats_buf.upload(&init, sizeof(init));
  device::check(device::driver().cuCtxSynchronize(), "compare_outputs: order the upload");
  static const device::Function fn = device::Function::from_symbol(reinterpret_cast<const void*>(&compare_kernel), "compare_outputs");
  const void* g = reinterpret_cast<const void*>(static_cast<std::uintptr_t>(got));
  const void* w = reinterpret_cast<const void*>(static_cast<std::uintptr_t>(want));
  int t = static_cast<int>(type), bytes = static_cast<int>(element_bytes(type));
  bool exact = policy.exact;
  double rel = policy.rel_tol, abs = policy.abs_tol;
  DeviceStats* sp = stats_buf.as<DeviceStats>();
  void* args[] = {&g, &w, &n, &t, &bytes, &exact, &rel, &abs, &sp};
  launcher.launch_checked(fn, stride_launch("compare_outputs", n), args, stream);
  DeviceStats out{};
  device::check(device::driver().cuStreamSynchronize(stream), "compare_outputs sync");
  stats_buf.download(&out, sizeof(out));
  CompareStats s;
  s.mismatches = out.mismatches;
  s.first_mismatch = out.first_mismatch;
  std::memcpy(&s.max_abs_err, &out.max_abs_err_bits, sizeof(double));
  return s;
}

std::uint64_t count_poison(ElementType type, CUdeviceptr data, std::uint64_t n, device::Launcher& launcher,
                           CUstream stream) {
  device::DeviceBuffer count_buf(sizeof(unsigned long long));
  count_buf.fill_bytes(0);
  static const device::Function fn = device::Function::from_symbol(reinterpret_cast<const void*>(&poison_kernel), "count_poison");
  const void* d = reinterpret_cast<const void*>(static_cast<std::uintptr_t>(data));
  int bytes = static_cast<int>(element_bytes(type));
  std::uint32_t pattern = poison_pattern(type);
  unsigned long long* cp = count_buf.as<unsigned long long>();
  void* args[] = {&d, &n, &bytes, &pattern, &cp};
  device::check(device::driver().cuCtxSynchronize(), "count_poison: order the memset");
  launcher.launch_checked(fn, stride_launch("count_poison", n), args, stream);
  device::check(device::driver().cuStreamSynchronize(stream), "count_poison sync");
  unsigned long long c = 0;
  count_buf.download(&c, sizeof(c));
  return c;
}

}  // namespace gridfuzz
