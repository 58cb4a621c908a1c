#include "builtin_kernels.hpp"

#include "gridfuzz/affine/register.hpp"
#include "gridfuzz/gguf/register.hpp"

namespace gridfuzz::cli {

void register_builtin_kernels(Registry& registry) {
  gguf::register_kernels(registry);
  affine::register_kernels(registry);
}

}  // namespace gridfuzz::cli
