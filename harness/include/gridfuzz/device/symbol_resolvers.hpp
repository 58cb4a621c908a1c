#pragma once
// Finding a __global__ function that another binary's CUDA runtime registered.
//
// Why: the CUDA runtime is linked statically (CMAKE_CUDA_RUNTIME_LIBRARY Static) and all of its
// symbols are hidden, so gridfuzz and each plugin carry their own private copy. A plugin's kernels
// are registered with the plugin's copy only; gridfuzz's cudaGetFuncBySymbol does not know them.
// The plugin entry point (plugin.hpp) therefore hands gridfuzz a resolver compiled into the plugin,
// and Function::from_symbol asks the resolvers when gridfuzz's own runtime does not know a symbol.
#include <cuda.h>

namespace gridfuzz::device {

// The CUfunction of `symbol` (the address of a __global__ function), or nullptr when the runtime
// of the binary that supplied the resolver does not know it.
using SymbolResolver = CUfunction (*)(const void* symbol);

// Adds a resolver (idempotent: the same resolver is kept once).
void add_symbol_resolver(SymbolResolver resolver);

// The first non-null answer of the resolvers, in the order they were added; nullptr when none.
CUfunction resolve_symbol_in_plugins(const void* symbol);

}  // namespace gridfuzz::device
