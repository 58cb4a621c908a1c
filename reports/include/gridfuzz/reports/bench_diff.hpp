#pragma once
// Two runs of the benchmarks compared by the rule `gridfuzz diff` judges timings by
// (compare_timing): each benchmark's repetitions are its raw samples, so the Mann-Whitney test
// decides whether a change beyond the threshold stands out of the noise.
#include <iosfwd>
#include <string>
#include <vector>

#include "gridfuzz/reports/bench_json.hpp"
#include "gridfuzz/reports/timing_compare.hpp"

namespace gridfuzz::reports {

struct BenchChange {
  std::string name;
  TimingSamples before, after;
  TimingComparison comparison;
};

struct BenchDiff {
  std::vector<BenchChange> compared;  // the benchmarks of both runs, in the current run's order
  std::vector<std::string> only_baseline, only_current;
  bool any_slower() const;
};

BenchDiff diff_benchmarks(const std::vector<BenchmarkRuns>& baseline, const std::vector<BenchmarkRuns>& current,
                          const TimingOptions& options);

// The table: one line per benchmark (medians, repetitions, change, class, reason), then the
// benchmarks of one run only and a count of each class.
void print_bench_diff(std::ostream& out, const BenchDiff& diff);

}  // namespace gridfuzz::reports
