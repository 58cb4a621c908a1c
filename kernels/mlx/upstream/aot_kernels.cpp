#include "aot_kernels.hpp"

#include <unordered_map>

#include "mlx/backend/cuda/jit_module.h"

namespace gridfuzz::mlx {

const std::vector<AotKernel>& aot_kernels() {
  static const std::vector<AotKernel> all = [] {
    std::vector<AotKernel> v;
    for (auto part : {qmm_sm80_kernels_bf16_b4, qmm_sm80_kernels_bf16_b8, qmm_sm80_kernels_f16_b4,
                      qmm_sm80_kernels_f16_b8, qmm_sm80_kernels_bf16_b4_g32, qmm_sm80_kernels_bf16_b4_g128})
      for (AotKernel& k : part()) v.push_back(std::move(k));
    return v;
  }();
  return all;
}

}  // namespace gridfuzz::mlx

namespace mlx::core::cu {

const void* find_aot_kernel(const std::string& name) {
  static const std::unordered_map<std::string, const void*> by_name = [] {
    std::unordered_map<std::string, const void*> m;
    for (const gridfuzz::mlx::AotKernel& k : gridfuzz::mlx::aot_kernels()) m.emplace(k.name, k.function);
    return m;
  }();
  const auto it = by_name.find(name);
  return it == by_name.end() ? nullptr : it->second;
}

}  // namespace mlx::core::cu
