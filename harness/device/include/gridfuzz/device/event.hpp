#pragma once
#include <cuda.h>

#include "gridfuzz/device/handle.hpp"

namespace gridfuzz::device {

void release_event(CUevent e);

// A timing event.
class Event {
 public:
  Event();
  CUevent get() const { return h_.get(); }
  void record(CUstream stream) const;
  void synchronize() const;
  // Milliseconds from `start` to this event; both must have completed.
  float elapsed_ms_since(const Event& start) const;

 private:
  Handle<CUevent, release_event> h_;
};

}  // namespace gridfuzz::device
