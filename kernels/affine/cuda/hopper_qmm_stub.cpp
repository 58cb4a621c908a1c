// The build without the sm_90a Hopper qmm (no CUTLASS headers, or GRIDFUZZ_HOPPER_QMM=OFF): the
// "hopper" variant then always plans and runs the fixed mma.sync path.
#include <stdexcept>

#include "hopper_qmm.hpp"

namespace gridfuzz::affine {

bool hopper_qmm_compiled() { return false; }

const device::Function& hopper_qmm_function(HopperTile) {
  throw std::logic_error("hopper qmm: not compiled into this build (needs the mlx-cuda-13 CUTLASS headers)");
}

const device::LaunchRecord& launch_hopper_qmm(const LaunchSpec&, const HopperQmmArgs&, device::Launcher&, CUstream) {
  throw std::logic_error("hopper qmm: not compiled into this build (needs the mlx-cuda-13 CUTLASS headers)");
}

}  // namespace gridfuzz::affine
