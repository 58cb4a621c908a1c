#pragma once
// Stand-in for the header MLX's build generates with the kernel sources NVRTC compiles at run
// time. gridfuzz compiles those kernels ahead of time (kernels/mlx/upstream/), so the sources are
// never needed: the JIT stand-in (mlx/backend/cuda/jit_module.h) looks kernels up by name.
namespace mlx::core {
inline constexpr const char* jit_source_qmm_sm80 = "";
inline constexpr const char* jit_source_qmm_naive = "";
inline constexpr const char* jit_source_qmm_sm90 = "";
}  // namespace mlx::core
