#include "gridfuzz/device/driver_release.hpp"

#include <dlfcn.h>

#include <fstream>
#include <memory>
#include <sstream>

namespace gridfuzz::device {
namespace {

bool is_release_word(std::string_view w) {
  if (w.empty() || w.find('.') == std::string_view::npos || w.front() == '.' || w.back() == '.') return false;
  for (const char c : w)
    if (!(c == '.' || (c >= '0' && c <= '9'))) return false;
  return true;
}

std::string from_proc() {
  std::ifstream in("/proc/driver/nvidia/version");
  if (!in) return "";
  std::ostringstream text;
  text << in.rdbuf();
  return driver_release_of_proc_text(text.str());
}

// NVML, opened for this one question and closed again.
std::string from_nvml() {
  struct Closer {
    void operator()(void* h) const { dlclose(h); }
  };
  const std::unique_ptr<void, Closer> lib(dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL));
  if (!lib) return "";
  using Init = int (*)();
  using Version = int (*)(char*, unsigned);
  const auto init = reinterpret_cast<Init>(dlsym(lib.get(), "nvmlInit_v2"));
  const auto version = reinterpret_cast<Version>(dlsym(lib.get(), "nvmlSystemGetDriverVersion"));
  const auto shutdown = reinterpret_cast<Init>(dlsym(lib.get(), "nvmlShutdown"));
  if (!init || !version || !shutdown || init() != 0) return "";  // 0: NVML_SUCCESS
  char buffer[96] = {};  // NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE is 80
  const bool ok = version(buffer, sizeof(buffer) - 1) == 0;
  shutdown();
  return ok && is_release_word(buffer) ? std::string(buffer) : "";
}

}  // namespace

std::string driver_release_of_proc_text(std::string_view text) {
  const auto module = text.find("Kernel Module");
  if (module == std::string_view::npos) return "";
  std::istringstream words{std::string(text.substr(module + 13))};
  for (std::string w; words >> w;)
    if (is_release_word(w)) return w;
  return "";
}

std::string driver_release() {
  static const std::string release = [] {
    std::string r = from_proc();
    return r.empty() ? from_nvml() : r;
  }();
  return release;
}

}  // namespace gridfuzz::device
