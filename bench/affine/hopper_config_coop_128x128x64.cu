// One configuration of hopper_configs.hpp: the narrow production tile (128 x 128 x 64, cooperative)
// at any token count, to compare with the wide one where the plan picks that (issue #33 item 1).
#include "hopper_config_launch.cuh"

namespace gridfuzz::bench {

void launch_coop_128x128x64(const affine::HopperQmmArgs& a, CUstream stream) {
  launch_config<affine::NarrowHopperGemm>("coop_128x128x64", a, stream);
}

}  // namespace gridfuzz::bench
