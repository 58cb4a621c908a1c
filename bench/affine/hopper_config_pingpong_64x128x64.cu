// One configuration of hopper_configs.hpp: tiles of 64 x 128 x 64, warp-specialized pingpong.
#include "hopper_config_launch.cuh"

namespace gridfuzz::bench {

void launch_pingpong_64x128x64(const affine::HopperQmmArgs& a, CUstream stream) {
  launch_config<affine::HopperGemm<64, 128, 64, cutlass::gemm::KernelTmaWarpSpecializedPingpong,
                           cutlass::epilogue::TmaWarpSpecialized>>("pingpong_64x128x64", a, stream);
}

}  // namespace gridfuzz::bench
