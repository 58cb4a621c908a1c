#pragma once
// Stand-in for MLX's mlx/backend/cuda/device.h (shadows upstream's): the Device (its compute
// capability, which MLX's dispatch reads) and a CommandEncoder whose kernel nodes are handed to a
// sink instead of a CUDA graph: gridfuzz records them as the plan (no GPU) or launches them
// through its own launcher, each as MLX's host code computed it. add_kernel_node_ex packs its
// arguments as upstream's does (device.h:59-84 of MLX 846d176).
#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>

#include "mlx/array.h"
#include "mlx/backend/cuda/allocator.h"
#include "mlx/stream.h"

namespace mlx::core::cu {

class Device {
 public:
  Device(int major, int minor) : major_(major), minor_(minor) {}
  int compute_capability_major() const { return major_; }
  int compute_capability_minor() const { return minor_; }

 private:
  int major_, minor_;
};

// A kernel the JIT stand-in (jit_module.h) found: the ahead-of-time instantiation MLX names
// `name` (function is nullptr when gridfuzz did not compile that one).
struct KernelRef {
  const void* function = nullptr;
  std::string name;
};

// One kernel node as MLX's host code adds it.
struct KernelNode {
  const void* function = nullptr;
  std::string name;  // MLX's kernel name where its host code names one (JIT kernels), else empty
  dim3 grid, block;
  std::uint32_t smem_bytes = 0;
};

class CommandEncoder {
 public:
  using Sink = std::function<void(const KernelNode&, void** args)>;
  CommandEncoder(Device& device, Sink sink) : device_(device), sink_(std::move(sink)) {}

  Device& device() { return device_; }
  void set_input_array(const array&) {}
  void set_output_array(const array&) {}

  template <typename F, typename... Params>
  void add_kernel_node_ex(F func, dim3 grid_dim, dim3 block_dim, dim3 cluster_dim, std::uint32_t smem_bytes,
                          Params&&... params) {
    constexpr std::size_t num = sizeof...(Params);
    void* ptrs[num > 0 ? num : 1];
    std::size_t i = 0;
    ([&](auto&& p) { ptrs[i++] = static_cast<void*>(&p); }(std::forward<Params>(params)), ...);
    if constexpr (std::is_same_v<F, KernelRef>) {
      sink_(KernelNode{func.function, func.name, grid_dim, block_dim, smem_bytes}, ptrs);
    } else {
      add_kernel_node_raw(reinterpret_cast<void*>(func), grid_dim, block_dim, cluster_dim, smem_bytes, ptrs);
    }
  }

  void add_kernel_node_raw(void* func, dim3 grid_dim, dim3 block_dim, dim3 /*cluster_dim*/, std::uint32_t smem_bytes,
                           void** params) {
    sink_(KernelNode{func, {}, grid_dim, block_dim, smem_bytes}, params);
  }

 private:
  Device& device_;
  Sink sink_;
};

}  // namespace mlx::core::cu
