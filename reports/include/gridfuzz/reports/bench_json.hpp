#pragma once
// Google Benchmark's JSON (--benchmark_format=json or --benchmark_out): the real time of every
// repetition of every benchmark, in milliseconds. The repetitions are the entries of run_type
// "iteration" (a file of a version without run_type: every entry), grouped by run_name (name when
// absent); the aggregates (mean, median, stddev, cv) are summaries of them and are left out, as
// are the entries of a benchmark that reported an error.
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gridfuzz::reports {

// Not Google Benchmark JSON, or not readable: the message names the file and what is wrong.
class BenchJsonError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct BenchmarkRuns {
  std::string name;             // run_name: the benchmark with its arguments, e.g. "BM_qmv/4096"
  std::vector<double> real_ms;  // each repetition's real time per iteration, in file order
};

// The benchmarks in the order of their first entry. `source` names the text in messages.
// Throws BenchJsonError: not JSON, no "benchmarks" array, an entry without a real_time or with a
// unit other than ns, us, ms, s, or no repetition at all.
std::vector<BenchmarkRuns> parse_benchmark_json(std::string_view text, const std::string& source);

// The file's text, parsed; a file that cannot be read (or is over 64 MiB) is a BenchJsonError.
std::vector<BenchmarkRuns> read_benchmark_json(const std::filesystem::path& path);

}  // namespace gridfuzz::reports
