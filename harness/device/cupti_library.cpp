#include "cupti_library.hpp"

#include <cupti_callbacks.h>
#include <dlfcn.h>

#include <cstdlib>
#include <vector>

namespace gridfuzz::device {

const CuptiLibrary& CuptiLibrary::get() {
  static const CuptiLibrary library;
  return library;
}

CuptiLibrary::CuptiLibrary() {
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("GRIDFUZZ_CUPTI_LIBRARY")) candidates.emplace_back(env);
#ifdef GRIDFUZZ_CUPTI_DIRS
  for (const char* dir : {GRIDFUZZ_CUPTI_DIRS}) candidates.push_back(std::string(dir) + "/libcupti.so");
#endif
  candidates.emplace_back("libcupti.so");
  candidates.emplace_back("libcupti.so.13");
  candidates.emplace_back("libcupti.so.12");
  std::string tried;
  for (const std::string& c : candidates) {
    // Never closed: CUPTI keeps threads and callbacks into this process until it exits.
    handle_ = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle_) return;
    tried += (tried.empty() ? "" : ", ") + c;
  }
  failure_ = "libcupti not found (tried " + tried + "; set GRIDFUZZ_CUPTI_LIBRARY)";
}

void* CuptiLibrary::raw_symbol(const char* name) const { return handle_ ? dlsym(handle_, name) : nullptr; }

std::string CuptiLibrary::error_string(CUptiResult r) const {
  const char* s = nullptr;
  if (auto f = symbol<decltype(&cuptiGetResultString)>("cuptiGetResultString")) f(r, &s);
  return s ? s : "CUPTI error " + std::to_string(static_cast<int>(r));
}

}  // namespace gridfuzz::device
