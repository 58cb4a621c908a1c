#include "abort_bridge.hpp"

#include <cstdlib>

#include "gridfuzz/crash_note.hpp"
#include "gridfuzz/device/launch_recorder.hpp"

namespace gridfuzz::llamacpp {

void abort_with_crash_note(const std::string& message) {
  const std::string launches = device::LaunchRecorder::describe_live();
  leave_crash_note("llama.cpp abort: " + message + (launches.empty() ? "" : " [" + launches + "]"));
  std::abort();
}

}  // namespace gridfuzz::llamacpp
