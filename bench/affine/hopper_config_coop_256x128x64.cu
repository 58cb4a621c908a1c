// One configuration of hopper_configs.hpp: tiles of 256 x 128 x 64, warp-specialized cooperative.
#include "hopper_config_launch.cuh"

namespace gridfuzz::bench {

void launch_coop_256x128x64(const affine::HopperQmmArgs& a, CUstream stream) {
  launch_config<affine::HopperGemm<256, 128, 64, cutlass::gemm::KernelTmaWarpSpecializedCooperative,
                           cutlass::epilogue::TmaWarpSpecializedCooperative>>("coop_256x128x64", a, stream);
}

}  // namespace gridfuzz::bench
