#include "gridfuzz/llamacpp/register.hpp"

#include "matmul_kernel.hpp"

namespace gridfuzz::llamacpp {

void register_kernels(Registry& registry) {
  registry.add(make_matmul_kernel(Entry::mmvq));
  registry.add(make_matmul_kernel(Entry::mmq));
}

}  // namespace gridfuzz::llamacpp
