#pragma once
// Runs the limit probes on a real device through the checked launch path and sets each driver
// verdict beside the Predictor's.
#include <string>
#include <vector>

#include "gridfuzz/core/limit_probes.hpp"
#include "gridfuzz/core/vocabulary.hpp"

namespace gridfuzz::device {

struct ProbeResult {
  LimitProbe probe;
  PredictedOutcome predicted;  // accept | refuse:<rule>
  Observed observed;           // accept | refuse:<driver error name>
  bool ran_to_completion = false;  // an accepted launch really executed its last block
  // The verdict path's rule (outcome_agrees: accept==accept, refuse on both sides), and an
  // accepted probe ran to completion.
  bool agree() const;
};

// The probe kernels of this binary with their real attributes on the current device.
std::vector<ProbeKernelInfo> device_probe_kernels();

// Needs a device; throws NoDeviceError otherwise.
std::vector<ProbeResult> run_limit_probes(int ordinal);

// A Markdown table: boundary, kernel, grid, block, smem, predicted, driver.
std::string probes_markdown(const std::vector<ProbeResult>& results);

}  // namespace gridfuzz::device
