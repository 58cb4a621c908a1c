// `gridfuzz bench-diff BASELINE.json CURRENT.json`: the benchmarks' gate. Two runs of a
// *_bench binary (Google Benchmark, --benchmark_format=json, several repetitions) compared
// benchmark by benchmark with the rule `gridfuzz diff` judges timings by (compare_timing: the
// threshold, the absolute floor, and a Mann-Whitney U test of the repetitions' real times).
// Exit 0 when none is SLOWER, 1 when one is, 2 when the files cannot be compared (unreadable,
// not benchmark JSON, no benchmark in common). docs/PERFORMANCE.md states the rule.
#include <iostream>
#include <memory>

#include "gridfuzz/app/commands.hpp"
#include "gridfuzz/app/parse.hpp"
#include "gridfuzz/reports/bench_diff.hpp"
#include "gridfuzz/reports/text_escape.hpp"

namespace gridfuzz::app {
namespace {

struct BenchDiffArgs {
  std::string baseline, current;
  std::string threshold = "10%";
  double alpha = 0.05;
  double min_delta_ms = 0.0;
};

}  // namespace

Runner add_bench_diff_command(CLI::App& app, const GlobalOptions&) {
  auto a = std::make_shared<BenchDiffArgs>();
  auto* cmd = app.add_subcommand("bench-diff", "compare two runs of a benchmark binary (Google Benchmark JSON): exit 1 "
                                               "when a benchmark is significantly slower, 2 when they cannot be compared");
  cmd->add_option("baseline", a->baseline, "the baseline's JSON (baselines/<device>-bench/NAME.json)")->required();
  cmd->add_option("current", a->current, "this run's JSON (--benchmark_format=json, with --benchmark_repetitions)")
      ->required();
  cmd->add_option("--threshold", a->threshold,
                  "relative change of a median time that can count as slower or faster (default 10%)");
  cmd->add_option("--alpha", a->alpha,
                  "the Mann-Whitney U test's level: a change beyond the threshold with p >= alpha is UNSURE "
                  "(default 0.05)")
      ->check(share_of_one());
  cmd->add_option("--min-delta-ms", a->min_delta_ms,
                  "changes of the median smaller than this many ms are SAME (default 0: a benchmark's real time "
                  "is already an average over many iterations)")
      ->check(finite_number(0));
  return [a]() -> int {
    reports::TimingOptions options;
    options.threshold = parse_threshold(a->threshold);
    options.alpha = a->alpha;
    options.min_delta_ms = a->min_delta_ms;
    std::vector<reports::BenchmarkRuns> baseline, current;
    try {
      baseline = reports::read_benchmark_json(a->baseline);
      current = reports::read_benchmark_json(a->current);
    } catch (const reports::BenchJsonError& e) {
      std::cerr << "gridfuzz bench-diff: cannot compare: " << reports::terminal_text(e.what()) << "\n";
      return kUsage;
    }
    const reports::BenchDiff diff = reports::diff_benchmarks(baseline, current, options);
    if (diff.compared.empty()) {
      std::cerr << "gridfuzz bench-diff: cannot compare: no benchmark of " << reports::terminal_text(a->current)
                << " is in " << reports::terminal_text(a->baseline) << "\n";
      return kUsage;
    }
    reports::print_bench_diff(std::cout, diff);
    return diff.any_slower() ? kFound : kOk;
  };
}

}  // namespace gridfuzz::app
