// The input fills of the self-test kernels (support.hpp).
#include <algorithm>

#include "gridfuzz/checked_math.hpp"
#include "gridfuzz/device/function.hpp"
#include "gridfuzz/device/launcher.hpp"
#include "support.hpp"

namespace gridfuzz::selftest {
namespace {

enum class Fill { bytes, floats, words };

template <Fill kind>
__global__ void fill_kernel(void* data, std::uint64_t n, std::uint64_t seed) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    if constexpr (kind == Fill::bytes) static_cast<std::uint8_t*>(data)[i] = byte_at(i, seed);
    if constexpr (kind == Fill::floats) static_cast<float*>(data)[i] = float_at(i, seed);
    if constexpr (kind == Fill::words) static_cast<std::uint32_t*>(data)[i] = word_at(i, seed);
  }
}

template <Fill kind>
void fill(CUdeviceptr data, std::uint64_t n, std::uint64_t seed, CUstream stream) {
  static const device::Function fn =
      device::Function::from_symbol(reinterpret_cast<const void*>(&fill_kernel<kind>), "selftest_fill");
  if (n == 0) return;
  void* ptr = reinterpret_cast<void*>(static_cast<std::uintptr_t>(data));
  void* args[] = {&ptr, &n, &seed};
  LaunchSpec l;
  l.grid = {std::min<std::uint64_t>(ceil_div(n, 256), 8192), 1, 1};
  l.block = {256, 1, 1};
  device::Launcher launcher;
  launcher.launch_checked(fn, l, args, stream);
}

}  // namespace

void fill_bytes(CUdeviceptr d, std::uint64_t n, std::uint64_t seed, CUstream s) { fill<Fill::bytes>(d, n, seed, s); }
void fill_floats(CUdeviceptr d, std::uint64_t n, std::uint64_t seed, CUstream s) { fill<Fill::floats>(d, n, seed, s); }
void fill_words(CUdeviceptr d, std::uint64_t n, std::uint64_t seed, CUstream s) { fill<Fill::words>(d, n, seed, s); }

}  // namespace gridfuzz::selftest
