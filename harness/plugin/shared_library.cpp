#include "gridfuzz/plugin/shared_library.hpp"

#include <dlfcn.h>

#include <stdexcept>

namespace gridfuzz::plugin {

SharedLibrary::SharedLibrary(const std::string& path) {
  dlerror();
  handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle_) {
    const char* why = dlerror();
    throw std::runtime_error(why ? why : "dlopen failed");
  }
}

SharedLibrary::~SharedLibrary() {
  if (handle_) dlclose(handle_);
}

void* SharedLibrary::symbol(const char* name) const { return dlsym(handle_, name); }

}  // namespace gridfuzz::plugin
