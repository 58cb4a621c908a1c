#pragma once
// Device-side checks of output buffers that can be gigabytes: big-vs-split comparison and the
// count of poison values that survived. Launched through the checked launch path.
#include <cuda.h>

#include <cstdint>

#include "gridfuzz/device/launcher.hpp"
#include "gridfuzz/kernel.hpp"

namespace gridfuzz {

struct CompareStats {
  std::uint64_t mismatches = 0;
  std::uint64_t first_mismatch = UINT64_MAX;  // element index, UINT64_MAX when none
  double max_abs_err = 0;                     // over elements where both values are finite
};

// Compares `n` elements of `got` with `want` under `policy` (bit-exact, or |got-want| <=
// abs_tol + rel_tol*|want|; a NaN on either side is a mismatch unless both bit patterns match).
CompareStats compare_outputs(ElementType type, CUdeviceptr got, CUdeviceptr want, std::uint64_t n,
                             const ComparePolicy& policy, device::Launcher& launcher, CUstream stream);

// Number of elements still holding poison_pattern(type).
std::uint64_t count_poison(ElementType type, CUdeviceptr data, std::uint64_t n, device::Launcher& launcher,
                           CUstream stream);

// A value of `type` at `bits` (the element's raw bits) as double.
double element_to_double(ElementType type, std::uint32_t bits);

}  // namespace gridfuzz
