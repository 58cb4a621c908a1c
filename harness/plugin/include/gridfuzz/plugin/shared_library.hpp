#pragma once
// One dlopen() handle, closed on destruction unless kept for the life of the process.
#include <string>

namespace gridfuzz::plugin {

class SharedLibrary {
 public:
  // RTLD_NOW: an unresolved symbol is an error here, not a crash in the middle of a case.
  // Throws std::runtime_error with dlerror()'s text.
  explicit SharedLibrary(const std::string& path);
  ~SharedLibrary();
  SharedLibrary(const SharedLibrary&) = delete;
  SharedLibrary& operator=(const SharedLibrary&) = delete;

  // The address of `name`, or nullptr when the library does not define it.
  void* symbol(const char* name) const;
  // Never close it: objects made by its code outlive this handle.
  void keep_loaded() { handle_ = nullptr; }

 private:
  void* handle_ = nullptr;
};

}  // namespace gridfuzz::plugin
