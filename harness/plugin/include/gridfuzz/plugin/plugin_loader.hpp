#pragma once
// `gridfuzz --plugin PATH`: loads a shared library built with gridfuzz_add_plugin and lets it
// register its Kernel adapters. Host side only; plugins see gridfuzz/plugin.hpp instead.
#include <stdexcept>
#include <string>
#include <vector>

#include "gridfuzz/registry.hpp"

namespace gridfuzz::plugin {

// A plugin that cannot be used; the message names the file and the problem.
class PluginError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Loads `path` (made absolute), checks its API version, and calls its registration entry point with
// `registry`. The library stays loaded for the life of the process (the registry holds objects
// whose code lives in it). Throws PluginError: missing file, not a loadable shared library (or one
// with unresolved symbols), no entry point, API version mismatch, or a failed registration.
void load_plugin(const std::string& path, Registry& registry);

// Absolute paths of the plugins loaded so far, in load order (the worker process loads the same).
std::vector<std::string> loaded_plugins();

}  // namespace gridfuzz::plugin
