#pragma once
// The version of the plugin ABI: the adapter headers (kernel.hpp and what it includes, registry.hpp,
// plugin.hpp, device/function.hpp, device/launcher.hpp, device/symbol_resolvers.hpp) and the
// exported gridfuzz functions a plugin calls. A plugin is built against one version and gridfuzz
// loads it only when its own version is the same (an exact match, checked before any C++ object
// crosses the boundary).
//
// Bump rules (docs/PLUGINS.md says the same for users):
//   bump when a built plugin could misbehave against the new gridfuzz without a rebuild:
//     - a virtual function of Kernel, BoundCase or BufferSet added, removed, reordered or re-typed;
//     - a field added, removed or re-typed in a struct that crosses the boundary (AxisSpec, Params,
//       BufferSpec, ComparePolicy, ReferenceSample, SplitPiece, LaunchSpec, Dim3, FuncAttributes,
//       LaunchPlan, IndexRange, HostArgument, DeviceLimits, LaunchRecord);
//     - the signature or meaning of an exported function a plugin may call changed or removed
//       (Registry::add, Function::from_symbol/from_module, Launcher::launch/launch_checked, Params
//       accessors, element_bytes, add_symbol_resolver, ...);
//     - the entry points of plugin.hpp changed.
//   no bump for: new free functions or headers, new non-virtual members, comments, host-only code.
// History: 1, the first plugin ABI; 2, Kernel::bind returns a BoundCase (the shape parsed once,
// the variant known to the split reference), buffers by name, host-computed arguments in the
// plan, 16-bit index types, Kernel::launch_owner; 3, BoundCase::reference_same_for_every_variant.
// Still 3: defaults for Kernel::description, variants, check and BoundCase::fill_inputs, split,
// launch_split_reference (a body given to a pure virtual keeps its slot: plugins built before run
// unchanged), and the header-only Axis.
#define GRIDFUZZ_API_VERSION 3

namespace gridfuzz {
inline constexpr int kApiVersion = GRIDFUZZ_API_VERSION;
}  // namespace gridfuzz
