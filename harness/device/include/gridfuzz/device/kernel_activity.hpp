#pragma once
// Kernel time: how long the kernels of one call ran on the GPU, from CUPTI's activity records.
//
// Call time (CUDA events around the production call) also counts the host work between launches
// and the gaps it leaves on the GPU; a decode-size call of ~25 us can spend a good part of it
// there. Kernel time is what the GPU timestamps as the kernels' start and end. A KernelActivity
// enables CUPTI's concurrent-kernel activity while it lives, so only the kernels launched in its
// lifetime are recorded (not an L2 flush before it); take() returns them once the caller has
// synchronized. CUPTI is loaded at run time (cupti_library.hpp): where it is missing, or another
// tool owns CUPTI's activity API, gridfuzz runs without kernel time.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace gridfuzz::device {

// One kernel as the GPU ran it (CUPTI's timestamps, nanoseconds on CUPTI's clock).
struct KernelInterval {
  std::string name;  // the kernel's symbol as CUPTI gives it
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
};

// The time in which at least one of the kernels ran (overlapping kernels counted once), in
// milliseconds; 0 for none. Pure.
double busy_ms(std::vector<KernelInterval> kernels);

class KernelActivityUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One at a time per process.
class KernelActivity {
 public:
  KernelActivity();  // throws KernelActivityUnavailable
  ~KernelActivity();
  KernelActivity(const KernelActivity&) = delete;
  KernelActivity& operator=(const KernelActivity&) = delete;

  // The kernels that ran since construction (or the last take). Call after synchronizing the work.
  // Throws KernelActivityUnavailable when CUPTI dropped records (the time would be too short).
  std::vector<KernelInterval> take();

  // Empty when kernel activity can be recorded; else why not.
  static std::optional<std::string> unavailable_reason();
};

}  // namespace gridfuzz::device
