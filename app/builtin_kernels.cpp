#include "gridfuzz/app/builtin_kernels.hpp"

#include "gridfuzz/affine/register.hpp"
#include "gridfuzz/gguf/register.hpp"
#ifdef GRIDFUZZ_HAS_VLLM
#include "gridfuzz/vllm/register.hpp"
#endif
#ifdef GRIDFUZZ_HAS_LLAMACPP
#include "gridfuzz/llamacpp/register.hpp"
#endif
#ifdef GRIDFUZZ_HAS_MLX
#include "gridfuzz/mlx/register.hpp"
#endif

namespace gridfuzz::app {

void register_builtin_kernels(Registry& registry) {
  gguf::register_kernels(registry);
  affine::register_kernels(registry);
#ifdef GRIDFUZZ_HAS_VLLM
  vllm::register_kernels(registry);  // upstream's kernels, when the build found their sources
#endif
#ifdef GRIDFUZZ_HAS_LLAMACPP
  llamacpp::register_kernels(registry);  // llama.cpp's CUDA matmuls, when the build found their sources
#endif
#ifdef GRIDFUZZ_HAS_MLX
  mlx::register_kernels(registry);  // MLX's kernels, when the build found MLX's sources (GRIDFUZZ_MLX_DIR)
#endif
}

}  // namespace gridfuzz::app
