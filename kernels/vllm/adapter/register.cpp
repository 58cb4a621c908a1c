#include "gridfuzz/vllm/register.hpp"

namespace gridfuzz::vllm {

void register_kernels(Registry& registry) {
  registry.add(make_moe_vec_kernel());
  registry.add(make_mmvq_kernel());
  registry.add(make_moe_mmq_kernel());
  registry.add(make_quantize_q8_1_kernel());
}

}  // namespace gridfuzz::vllm
