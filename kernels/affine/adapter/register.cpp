#include "gridfuzz/affine/register.hpp"

namespace gridfuzz::affine {

void register_kernels(Registry& registry) {
  registry.add(make_dense_qmm_kernel());
  registry.add(make_gather_qmm_kernel());
}

}  // namespace gridfuzz::affine
