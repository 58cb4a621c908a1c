#pragma once
// The one launch path. Every launch goes through cuLaunchKernel here; its return code is read at
// once and recorded (never left pending for an unrelated later call to report). Production
// launchers decide what to do with a failure: a `fixed` launcher throws LaunchError (geometry in
// the message), a `legacy` one ignores it as upstream did, and the harness still sees the record.
#include <cuda.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "gridfuzz/device/function.hpp"
#include "gridfuzz/launch_spec.hpp"

namespace gridfuzz::device {

struct LaunchRecord {
  LaunchSpec spec;              // with spec.func filled from the function's real attributes
  CUresult code = CUDA_SUCCESS;
  std::string error;            // driver error name, empty on success
  bool ok() const { return code == CUDA_SUCCESS; }
  std::string describe() const;
};

class LaunchError : public std::runtime_error {
 public:
  explicit LaunchError(const LaunchRecord& r);
  const LaunchRecord& record() const { return record_; }

 private:
  LaunchRecord record_;
};

class Launcher {
 public:
  // Launches `fn` with `spec`'s geometry and `args` (cuLaunchKernel kernelParams) on `stream`.
  // An opt-in launch first raises CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES; a failure there
  // is recorded like a refused launch. Extents beyond 32 bits cannot be passed to the driver and
  // are recorded as refused with error "GRIDFUZZ_EXTENT_OVER_32_BITS".
  const LaunchRecord& launch(const Function& fn, LaunchSpec spec, void** args, CUstream stream);
  // Same, and throws LaunchError when the launch is not accepted (the `fixed` behaviour).
  const LaunchRecord& launch_checked(const Function& fn, LaunchSpec spec, void** args, CUstream stream);

  const std::vector<LaunchRecord>& records() const { return records_; }
  void clear() {
    records_.clear();
    watched_ = false;
  }

  // A launch that host code other than ours made, seen by a LaunchRecorder (launch_recorder.hpp).
  // The runner then compares the records with the kernel's plan.
  void add_watched(LaunchRecord rec) {
    records_.push_back(std::move(rec));
    watched_ = true;
  }
  // True when any record came from watching (add_watched).
  bool watched() const { return watched_; }

 private:
  std::vector<LaunchRecord> records_;
  bool watched_ = false;  // after records_: a plugin built before it sees the same layout up to here
};

}  // namespace gridfuzz::device
