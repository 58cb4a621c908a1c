#include "gridfuzz/mlx/register.hpp"

namespace gridfuzz::mlx {

void register_kernels(Registry& registry) {
  registry.add(make_dense_qmm_kernel());
  registry.add(make_gather_qmm_kernel());
}

}  // namespace gridfuzz::mlx
