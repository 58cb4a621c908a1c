#include "gridfuzz/gguf/register.hpp"

namespace gridfuzz::gguf {

void register_kernels(Registry& registry) {
  registry.add(make_quantize_q8_1_kernel());
  registry.add(make_moe_vec_kernel());
  registry.add(make_mmvq_kernel());
}

}  // namespace gridfuzz::gguf
