#pragma once
// How the reports read one row: its axes (from the replay string, which holds every parameter,
// including those without a CSV column), whether the model and the device say it fails, and the
// rule it hits in words ("grid.z 65536 > 65535").
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "gridfuzz/reports/csv_row.hpp"

namespace gridfuzz::reports {


// Parameter name -> value of the case. From the replay string (KERNEL/VARIANT/SEED/params);
// when that does not parse, from the axis columns (quant ... vocab) that are set.
std::map<std::string, std::string> case_axes(const CsvRow& row);

// The model says the case fails: a launch refused, a host error, or an index that wraps.
bool predicted_fails(const CsvRow& row);

// The device says the case fails: not accepted, or accepted with wrong output (verdict fail:* or
// expected-fail). nullopt when the case did not run on a device (static, skipped).
std::optional<bool> observed_fails(const CsvRow& row);

// The predicted rule with its numbers when the row has them: "grid.z 65536 > 65535",
// "grid.zero (1,1,0)", "wrap:l (max_index 4294967296, int32)"; else the predicted text.
std::string predicted_rule_text(const CsvRow& row);

// What the device did, in a few words: the observed text, or the oracle's finding for a case
// that was accepted ("accept, oracle mismatch:12").
std::string observed_text(const CsvRow& row);

// "NVIDIA H200" -> "nvidia-h200", "preset:sm_90" -> "preset-sm-90": the device part of a
// baseline file name (baselines/<slug>.csv).
std::string device_slug(std::string_view device);

}  // namespace gridfuzz::reports
