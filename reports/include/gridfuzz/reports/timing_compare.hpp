#pragma once
// Is a case slower now than in the baseline? A change counts only when it is large (the medians
// differ by more than the threshold and by more than an absolute floor) AND it stands out of the
// noise. With the raw samples of both runs (time_samples_ms, schema 1.7; a benchmark's
// repetitions) the noise is judged by a two-sided Mann-Whitney U test (mann_whitney.hpp). A row
// of an older schema keeps only median, min, max and the count, so there the test is interval
// separation: the [min, max] ranges of the two runs do not overlap. docs/PERFORMANCE.md, "How diff
// classifies timings", explains why.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gridfuzz/reports/csv_row.hpp"

namespace gridfuzz::reports {

enum class TimingChange { same, faster, slower, unsure };

std::string_view to_string(TimingChange change);  // "SAME", "FASTER", "SLOWER", "UNSURE"

struct TimingSamples {
  double median_ms = 0, min_ms = 0, max_ms = 0;
  std::int64_t samples = 0;
  std::vector<double> raw_ms;  // the samples themselves, in the order taken; empty: not kept
};

// The row's timing, or nullopt when it was not timed (empty, non-finite or non-positive times).
// raw_ms from time_samples_ms; empty for a file of schema 1.6 or older.
std::optional<TimingSamples> timing_of(const CsvRow& row);

// The timing of raw samples: their median, min, max and count (a benchmark's repetitions).
// Empty samples: nullopt.
std::optional<TimingSamples> timing_of_samples(std::vector<double> raw_ms);

struct TimingOptions {
  double threshold = 0.10;          // relative change of the median that matters
  std::int64_t min_samples = 3;     // below this, a change beyond the threshold is UNSURE
  // Changes of the median smaller than this (ms) are SAME whatever their ratio: a 15 us call that
  // takes 3 us longer on another machine is launch-latency jitter, not a regression (seen on the
  // H200 between two machines: +2..6 us on 7..25 us cases).
  double min_delta_ms = 0.02;
  // The Mann-Whitney test's level: a change beyond the threshold is SLOWER/FASTER when p < alpha,
  // else UNSURE.
  double alpha = 0.05;
};

// Which rule judged a change beyond the threshold.
enum class NoiseTest { none, mann_whitney, interval };

struct TimingComparison {
  TimingChange change = TimingChange::same;
  double relative = 0;  // current median / baseline median - 1
  NoiseTest test = NoiseTest::none;  // none: the size rules alone decided (SAME, too few samples)
  std::optional<double> p_value;     // the Mann-Whitney test's, when it ran
  std::string reason;   // one line, for UNSURE and the listed changes
};

TimingComparison compare_timing(const TimingSamples& baseline, const TimingSamples& current,
                                const TimingOptions& options = {});

}  // namespace gridfuzz::reports
