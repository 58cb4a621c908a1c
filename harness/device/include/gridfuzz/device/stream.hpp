#pragma once
#include <cuda.h>

#include "gridfuzz/device/handle.hpp"

namespace gridfuzz::device {

void release_stream(CUstream s);

// A non-blocking stream (never implicitly synchronised with the legacy default stream).
class Stream {
 public:
  Stream();
  CUstream get() const { return h_.get(); }
  void synchronize() const;

 private:
  Handle<CUstream, release_stream> h_;
};

}  // namespace gridfuzz::device
