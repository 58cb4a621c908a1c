#pragma once
// The one by-value argument of the qmv and qmm kernels. Plain data, shared by the host code that
// fills it and the kernels that read it. 16-bit activations travel as raw bit patterns.
#include <cstdint>

namespace gridfuzz::affine {

struct MatmulArgs {
  const std::uint16_t* x = nullptr;      // activations [x_rows or batches, m, k] (fp16/bf16 bits)
  const std::uint32_t* w = nullptr;      // packed weights [experts, n, k*bits/32]
  const std::uint16_t* scales = nullptr; // [experts, n, k/group_size]
  const std::uint16_t* biases = nullptr; // [experts, n, k/group_size]
  const std::uint32_t* lhs = nullptr;    // per-slice activation batch (gather), null: the slice itself
  const std::uint32_t* rhs = nullptr;    // per-slice expert (gather), null: broadcast w (dense)
  std::uint16_t* out = nullptr;          // [slices, m, n]
  // As the host computed them: the int32 kernels take their low 32 bits as int (upstream's int
  // m, n, k, l; legacy always, fixed when the launch's bounds fit), the int64 kernels use them whole.
  std::int64_t m = 0, n = 0, k = 0;
  std::int64_t group_size = 64;
};

}  // namespace gridfuzz::affine
