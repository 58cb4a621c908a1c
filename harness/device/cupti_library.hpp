#pragma once
// libcupti, loaded once per process at run time (it ships with the toolkit, not with the driver,
// so gridfuzz must start without it). The launch recorder (callback API) and the kernel timer
// (activity API) both take their entry points from here.
#include <cupti_result.h>

#include <string>

namespace gridfuzz::device {

class CuptiLibrary {
 public:
  // Tries $GRIDFUZZ_CUPTI_LIBRARY, then the toolkit's library folders known at build time, then
  // the loader's search path.
  static const CuptiLibrary& get();

  bool loaded() const { return handle_ != nullptr; }
  // Why it could not be loaded ("" when loaded).
  const std::string& failure() const { return failure_; }

  // The entry point `name` as a function pointer of type F, or nullptr when this libcupti lacks it.
  template <class F>
  F symbol(const char* name) const {
    return reinterpret_cast<F>(raw_symbol(name));
  }

  // cuptiGetResultString's text for r, or "CUPTI error <n>".
  std::string error_string(CUptiResult r) const;

 private:
  CuptiLibrary();
  void* raw_symbol(const char* name) const;

  void* handle_ = nullptr;
  std::string failure_;
};

}  // namespace gridfuzz::device
