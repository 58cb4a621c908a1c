#pragma once
// A move-only owner of one driver handle, released with Release(handle) exactly once.
#include <utility>

namespace gridfuzz::device {

template <class T, auto Release>
class Handle {
 public:
  Handle() = default;
  explicit Handle(T h) : h_(h) {}
  ~Handle() { reset(); }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& o) noexcept : h_(std::exchange(o.h_, T{})) {}
  Handle& operator=(Handle&& o) noexcept {
    if (this != &o) {
      reset();
      h_ = std::exchange(o.h_, T{});
    }
    return *this;
  }
  T get() const { return h_; }
  explicit operator bool() const { return h_ != T{}; }
  void reset() {
    if (h_ != T{}) Release(std::exchange(h_, T{}));
  }

 private:
  T h_{};
};

}  // namespace gridfuzz::device
