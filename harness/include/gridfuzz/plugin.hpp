#pragma once
// The entry point of a gridfuzz plugin: a shared library that registers Kernel adapters.
//
//   #include "gridfuzz/plugin.hpp"
//   void register_my_kernels(gridfuzz::Registry& registry) {
//     registry.add(std::make_shared<MyKernel>());
//   }
//   GRIDFUZZ_PLUGIN(register_my_kernels)
//
// Use GRIDFUZZ_PLUGIN in exactly one source file of the plugin. It defines two extern "C"
// functions that `gridfuzz --plugin PATH` looks up:
//   int gridfuzz_plugin_api_version(void)
//       the GRIDFUZZ_API_VERSION the plugin was compiled against (read before anything else, so a
//       mismatch is reported without any C++ object crossing the boundary);
//   int gridfuzz_plugin_register(gridfuzz::Registry* registry, int host_api_version,
//                                char* error, std::size_t error_size)
//       0 on success; otherwise non-zero with a message in `error` (the versions differ, or the
//       registration function threw, e.g. a kernel name that is already taken).
// The plugin links nothing from gridfuzz: the gridfuzz executable exports its symbols and the
// plugin's references resolve to them when it is loaded (docs/DECISIONS.md, "Plugins").
#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdio>
#include <exception>

#include "gridfuzz/api_version.hpp"
#include "gridfuzz/device/symbol_resolvers.hpp"
#include "gridfuzz/registry.hpp"

#define GRIDFUZZ_PLUGIN_EXPORT extern "C" __attribute__((visibility("default")))

namespace gridfuzz::plugin_detail {

// Looks `symbol` up in the CUDA runtime linked into the plugin (static: one per binary, so this
// function must be compiled into the plugin itself, which is why it is `static` in a header).
static inline CUfunction resolve_in_this_binary(const void* symbol) {
  cudaFunction_t f{};
  if (cudaGetFuncBySymbol(&f, symbol) != cudaSuccess) {
    cudaGetLastError();  // leave no error pending in this runtime
    return nullptr;
  }
  return reinterpret_cast<CUfunction>(f);
}

// Internal linkage for the same reason: the resolver handed over must be this binary's.
static inline int register_plugin(void (*register_kernels)(gridfuzz::Registry&), gridfuzz::Registry* registry,
                                  int host_api_version, char* error, std::size_t error_size) {
  auto fail = [&](const char* message) {
    if (error && error_size) std::snprintf(error, error_size, "%s", message);
    return 1;
  };
  if (host_api_version != GRIDFUZZ_API_VERSION) {
    char message[160];
    std::snprintf(message, sizeof message, "built for gridfuzz API version %d, this gridfuzz has version %d",
                  GRIDFUZZ_API_VERSION, host_api_version);
    return fail(message);
  }
  if (!registry) return fail("no registry given");
  try {
    gridfuzz::device::add_symbol_resolver(&resolve_in_this_binary);
    register_kernels(*registry);
  } catch (const std::exception& e) {
    return fail(e.what());
  } catch (...) {
    return fail("the registration function threw a non-standard exception");
  }
  return 0;
}

}  // namespace gridfuzz::plugin_detail

#define GRIDFUZZ_PLUGIN(register_function)                                                               \
  GRIDFUZZ_PLUGIN_EXPORT int gridfuzz_plugin_api_version(void) { return GRIDFUZZ_API_VERSION; }          \
  GRIDFUZZ_PLUGIN_EXPORT int gridfuzz_plugin_register(gridfuzz::Registry* registry, int host_api_version, \
                                                      char* error, std::size_t error_size) {             \
    return ::gridfuzz::plugin_detail::register_plugin(register_function, registry, host_api_version, error, \
                                                      error_size);                                       \
  }
