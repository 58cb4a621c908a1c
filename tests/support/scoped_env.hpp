#pragma once
// An environment variable set (or unset) for one scope and restored after it, for the tests of
// code that reads one (GRIDFUZZ_CPU_THREADS, ...). Not for tests that run threads of their own
// while the variable changes: setenv is not thread-safe.
#include <stdlib.h>

#include <optional>
#include <string>

namespace gridfuzz::testing {

class ScopedEnv {
 public:
  // value nullptr: unset it for the scope.
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value != nullptr) ::setenv(name, value, 1);
    else ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_) ::setenv(name_.c_str(), old_->c_str(), 1);
    else ::unsetenv(name_.c_str());
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
  std::optional<std::string> old_;
};

}  // namespace gridfuzz::testing
