// Stream and Event: small RAII wrappers that check every call.
#include "gridfuzz/device/cuda_error.hpp"
#include "gridfuzz/device/driver_api.hpp"
#include "gridfuzz/device/event.hpp"
#include "gridfuzz/device/stream.hpp"

namespace gridfuzz::device {

void release_stream(CUstream s) { driver().cuStreamDestroy(s); }
void release_event(CUevent e) { driver().cuEventDestroy(e); }

Stream::Stream() {
  CUstream s{};
  check(driver().cuStreamCreate(&s, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  h_ = Handle<CUstream, release_stream>(s);
}

void Stream::synchronize() const { check(driver().cuStreamSynchronize(get()), "cuStreamSynchronize"); }

Event::Event() {
  CUevent e{};
  check(driver().cuEventCreate(&e, CU_EVENT_DEFAULT), "cuEventCreate");
  h_ = Handle<CUevent, release_event>(e);
}

void Event::record(CUstream stream) const { check(driver().cuEventRecord(get(), stream), "cuEventRecord"); }

void Event::synchronize() const { check(driver().cuEventSynchronize(get()), "cuEventSynchronize"); }

float Event::elapsed_ms_since(const Event& start) const {
  float ms = 0;
  check(driver().cuEventElapsedTime(&ms, start.get(), get()), "cuEventElapsedTime");
  return ms;
}

}  // namespace gridfuzz::device
