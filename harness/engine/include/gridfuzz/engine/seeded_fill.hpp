#pragma once
// BoundCase::fill_inputs' default on the GPU: `elements` elements of `type` at `data` set to
// seeded_element_bits(type, seed, buffer, i) (seeded_values.hpp), queued on `stream`.
#include <cuda.h>

#include <cstdint>

#include "gridfuzz/kernel.hpp"

namespace gridfuzz {

void fill_seeded(ElementType type, CUdeviceptr data, std::uint64_t elements, std::uint64_t seed, std::uint64_t buffer,
                 CUstream stream);

}  // namespace gridfuzz
