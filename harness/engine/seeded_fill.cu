#include "gridfuzz/device/function.hpp"
#include "gridfuzz/device/launcher.hpp"
#include "gridfuzz/engine/seeded_fill.hpp"
#include "gridfuzz/engine/seeded_values.hpp"

namespace gridfuzz {
namespace {

__global__ void seeded_fill_kernel(void* data, std::uint64_t n, int type, std::uint64_t seed, std::uint64_t buffer) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  const auto t = static_cast<ElementType>(type);
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const std::uint32_t bits = seeded_element_bits(t, seed, buffer, i);
    switch (t) {
      case ElementType::f32: case ElementType::i32: case ElementType::u32:
        static_cast<std::uint32_t*>(data)[i] = bits;
        break;
      case ElementType::f16: case ElementType::bf16:
        static_cast<std::uint16_t*>(data)[i] = static_cast<std::uint16_t>(bits);
        break;
      case ElementType::u8:
        static_cast<std::uint8_t*>(data)[i] = static_cast<std::uint8_t>(bits);
        break;
    }
  }
}

}  // namespace

void fill_seeded(ElementType type, CUdeviceptr data, std::uint64_t elements, std::uint64_t seed, std::uint64_t buffer,
                 CUstream stream) {
  if (elements == 0) return;
  static const device::Function fn =
      device::Function::from_symbol(reinterpret_cast<const void*>(&seeded_fill_kernel), "seeded_fill");
  void* ptr = reinterpret_cast<void*>(static_cast<std::uintptr_t>(data));
  int t = static_cast<int>(type);
  void* args[] = {&ptr, &elements, &t, &seed, &buffer};
  // A grid-stride loop: enough blocks to fill a GPU, far below the x limit; the values do not
  // depend on the grid.
  const std::uint64_t blocks = (elements + 255) / 256;
  LaunchSpec spec;
  spec.name = "seeded_fill";
  spec.block = {256, 1, 1};
  spec.grid = {blocks < 4096 ? blocks : 4096, 1, 1};
  device::Launcher().launch_checked(fn, spec, args, stream);
}

}  // namespace gridfuzz
