#include "gridfuzz/plugin/plugin_loader.hpp"

#include <elf.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
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

// What dlopen would map, checked first: a truncated library faults (SIGBUS) when the loader
// touches a page past the end of the file. Returns an error, or "" for a whole 64-bit ELF shared
// object whose program headers and loaded segments lie inside the file.
std::string elf_problem(const std::string& path, std::uintmax_t size) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::string("cannot be opened for reading: ") + std::strerror(errno);
  Elf64_Ehdr header{};
  if (size < sizeof header || !in.read(reinterpret_cast<char*>(&header), sizeof header))
    return "shorter than an ELF header";
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) return "no ELF magic";
  if (header.e_ident[EI_CLASS] != ELFCLASS64) return "not a 64-bit ELF file";
  if (header.e_type != ET_DYN) return "an ELF file, but not a shared library";
  if (header.e_phentsize != sizeof(Elf64_Phdr)) return "a malformed ELF header";
  const std::uintmax_t ph_end = header.e_phoff + std::uintmax_t{header.e_phnum} * sizeof(Elf64_Phdr);
  if (header.e_phoff > size || ph_end > size) return "truncated: its program headers lie past the end of the file";
  in.seekg(static_cast<std::streamoff>(header.e_phoff));
  for (int i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr ph{};
    if (!in.read(reinterpret_cast<char*>(&ph), sizeof ph)) return "truncated: a program header cannot be read";
    if (ph.p_type == PT_LOAD && (ph.p_offset > size || ph.p_filesz > size - ph.p_offset))
      return "truncated: a loaded segment lies past the end of the file (" + std::to_string(size) + " bytes)";
  }
  if (header.e_shoff != 0 && header.e_shoff + std::uintmax_t{header.e_shnum} * header.e_shentsize > size)
    return "truncated: its section headers lie past the end of the file";
  return "";
}

}  // namespace

void load_plugin(const std::string& given, Registry& registry) {
  namespace fs = std::filesystem;
  const std::string where = "plugin '" + given + "'";
  std::error_code ec;
  if (!fs::exists(given, ec)) throw PluginError(where + ": no such file");
  if (fs::is_directory(given, ec)) throw PluginError(where + ": is a directory, not a shared library");
  // A FIFO, a device or /dev/stdin would hang dlopen, or feed it anything.
  if (!fs::is_regular_file(given, ec)) throw PluginError(where + ": is not a regular file");
  const std::string path = fs::absolute(given).lexically_normal().string();
  if (const std::string problem = elf_problem(path, fs::file_size(path, ec)); !problem.empty())
    throw PluginError(where + ": cannot be loaded as a shared library: " + problem);

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
  } catch (...) {
    throw PluginError(where + ": registration threw something that is not a std::exception");
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
