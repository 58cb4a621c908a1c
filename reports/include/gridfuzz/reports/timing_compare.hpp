#pragma once
// Is a case slower now than in the baseline? The CSV keeps the median, min and max of the
// samples and their count, not the samples, so the test is interval separation: a change counts
// only when the medians differ by more than the threshold AND the [min, max] ranges of the two
// runs do not overlap (every current sample slower than every baseline sample, or faster).
// docs/PERFORMANCE.md, "How diff classifies timings", explains why.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "gridfuzz/reports/csv_row.hpp"

namespace gridfuzz::reports {

enum class TimingChange { same, faster, slower, unsure };

std::string_view to_string(TimingChange change);  // "SAME", "FASTER", "SLOWER", "UNSURE"

struct TimingSamples {
  double median_ms = 0, min_ms = 0, max_ms = 0;
  std::int64_t samples = 0;
};

// The row's timing, or nullopt when it was not timed (empty, non-finite or non-positive times).
std::optional<TimingSamples> timing_of(const CsvRow& row);

struct TimingOptions {
  double threshold = 0.10;          // relative change of the median that matters
  std::int64_t min_samples = 3;     // below this, a change beyond the threshold is UNSURE
  // Changes of the median smaller than this (ms) are SAME whatever their ratio: a 15 us call that
  // takes 3 us longer on another machine is launch-latency jitter, not a regression (seen on the
  // H200 between two machines: +2..6 us on 7..25 us cases).
  double min_delta_ms = 0.02;
};

struct TimingComparison {
  TimingChange change = TimingChange::same;
  double relative = 0;  // current median / baseline median - 1
  std::string reason;   // one line, for UNSURE and the listed changes
};

TimingComparison compare_timing(const TimingSamples& baseline, const TimingSamples& current,
                                const TimingOptions& options = {});

}  // namespace gridfuzz::reports
