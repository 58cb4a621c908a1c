#include "gridfuzz/plugin/plugin_loader.hpp"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

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

// Loads the library once in a child process first: a static initializer that ends the process
// (exit(0): every command would exit 0 with no output; abort(); a crash) or never returns ends
// only the child. The child says "loaded" on a pipe as soon as dlopen returns (whether or not it
// loaded: the real dlopen reports why not) and leaves with _exit, running nothing of the
// plugin's at exit. Returns an error, or "". Plugins load before any thread starts (main, the
// worker process), so the child may call dlopen.
std::string initializer_problem(const std::string& path) {
  constexpr int kProbeSeconds = 60;
  std::array<int, 2> fds{};
  if (pipe2(fds.data(), O_CLOEXEC) != 0) return "";  // no probe possible: load as before
  const pid_t child = fork();
  if (child < 0) {
    close(fds[0]);
    close(fds[1]);
    return "";
  }
  if (child == 0) {
    close(fds[0]);
    // What the initializer prints is printed once, by the real load.
    if (const int null = open("/dev/null", O_WRONLY); null >= 0) {
      dup2(null, STDOUT_FILENO);
      dup2(null, STDERR_FILENO);
    }
    dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    const char loaded = 'L';
    [[maybe_unused]] const ssize_t n = write(fds[1], &loaded, 1);
    _exit(0);
  }
  close(fds[1]);
  pollfd p{fds[0], POLLIN, 0};
  int ready = 0;
  do ready = poll(&p, 1, kProbeSeconds * 1000);
  while (ready < 0 && errno == EINTR);
  char got = 0;
  const bool loaded = ready == 1 && read(fds[0], &got, 1) == 1 && got == 'L';
  close(fds[0]);
  if (!loaded && ready == 0) kill(child, SIGKILL);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (loaded) return "";
  if (ready == 0)
    return "loading it did not finish in " + std::to_string(kProbeSeconds) + " s (a static initializer that never returns?)";
  if (WIFEXITED(status))
    return "loading it ended the process with exit status " + std::to_string(WEXITSTATUS(status)) +
           " (a static initializer that calls exit?)";
  if (WIFSIGNALED(status))
    return "loading it killed the process with signal " + std::to_string(WTERMSIG(status)) + " (" +
           strsignal(WTERMSIG(status)) + ") in a static initializer";
  return "loading it ended the process";
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

  if (const std::string problem = initializer_problem(path); !problem.empty())
    throw PluginError(where + ": refused: " + problem);

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
