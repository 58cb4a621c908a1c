#include "gridfuzz/plugin/plugin_loader.hpp"

#include <array>
#include <filesystem>
#include <mutex>
#include <optional>

#include "gridfuzz/api_version.hpp"
#include "gridfuzz/plugin/shared_library.hpp"

namespace gridfuzz::plugin {
namespace {

// The entry points GRIDFUZZ_PLUGIN defines (gridfuzz/plugin.hpp).
constexpr const char* kVersionEntry = "gridfuzz_plugin_api_version";
constexpr const char* kRegisterEntry = "gridfuzz_plugin_register";
using VersionFn = int (*)();
using RegisterFn = int (*)(Registry*, int, char*, std::size_t);

struct Loaded {
  std::mutex mutex;
  std::vector<std::string> paths;
};

Loaded& loaded() {
  static Loaded l;
  return l;
}

}  // namespace

void load_plugin(const std::string& given, Registry& registry) {
  namespace fs = std::filesystem;
  const std::string where = "plugin '" + given + "'";
  std::error_code ec;
  if (!fs::exists(given, ec)) throw PluginError(where + ": no such file");
  if (fs::is_directory(given, ec)) throw PluginError(where + ": is a directory, not a shared library");
  const std::string path = fs::absolute(given).lexically_normal().string();

  std::optional<SharedLibrary> library;
  try {
    library.emplace(path);
  } catch (const std::exception& e) {
    throw PluginError(where + ": cannot be loaded as a shared library: " + e.what());
  }
  const auto version = reinterpret_cast<VersionFn>(library->symbol(kVersionEntry));
  const auto register_kernels = reinterpret_cast<RegisterFn>(library->symbol(kRegisterEntry));
  if (!version || !register_kernels)
    throw PluginError(where + ": no entry point " + (register_kernels ? kVersionEntry : kRegisterEntry) +
                      " (define it with GRIDFUZZ_PLUGIN(register_function) from gridfuzz/plugin.hpp)");
  if (const int theirs = version(); theirs != kApiVersion)
    throw PluginError(where + ": API version mismatch: the plugin was built for gridfuzz API version " +
                      std::to_string(theirs) + ", this gridfuzz has version " + std::to_string(kApiVersion) +
                      " (rebuild the plugin against this gridfuzz)");
  // The plugin registers into a registry of its own first: if it fails, or one of its kernels
  // clashes, its kernels are destroyed here, while their code is still loaded (destroying them
  // after the library is unloaded would call code that is gone).
  Registry staged;
  std::array<char, 1024> error{};
  int status = 0;
  try {
    status = register_kernels(&staged, kApiVersion, error.data(), error.size());
  } catch (const std::exception& e) {
    throw PluginError(where + ": registration threw: " + e.what());
  }
  error.back() = '\0';  // the plugin's text need not be terminated
  if (status != 0) throw PluginError(where + ": registration failed: " + std::string(error.data()));
  for (const auto& kernel : staged.all())
    if (registry.find(kernel->name()))
      throw PluginError(where + ": kernel '" + kernel->name() + "' is registered twice (it is already loaded)");
  for (const auto& kernel : staged.all()) registry.add(kernel);
  library->keep_loaded();
  Loaded& l = loaded();
  std::lock_guard lock(l.mutex);
  l.paths.push_back(path);
}

std::vector<std::string> loaded_plugins() {
  Loaded& l = loaded();
  std::lock_guard lock(l.mutex);
  return l.paths;
}

}  // namespace gridfuzz::plugin
