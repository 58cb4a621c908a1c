#pragma once
// Other tiles and schedules of affine.qmm's hopper GEMM (kernels/affine/cuda/hopper_gemm.cuh),
// launched directly, for bench/affine's side-by-side at M 8192 (issue #33 item 1: which
// configuration closes the gap to cuBLAS). Built only with -DGRIDFUZZ_HOPPER_CONFIGS=ON (each
// configuration is about two CPU minutes of nvcc); the production path stays hopper_qmm.cu's.
#include <cuda.h>

#include <string>
#include <vector>

#include "hopper_qmm.hpp"

namespace gridfuzz::bench {

// The configurations built, by name ("coop_128x128x64", ...).
std::vector<std::string> hopper_config_names();

// One call of configuration `name` on `stream` (CUTLASS's persistent grid, no cluster). Throws
// std::invalid_argument where CUTLASS refuses the shape, std::runtime_error (with the geometry)
// where the launch fails.
void launch_hopper_config(const std::string& name, const affine::HopperQmmArgs& args, CUstream stream);

}  // namespace gridfuzz::bench
